#if Hummingbird
import Carlos
import CarlosHummingbird
import Foundation
import Hummingbird
import HummingbirdTesting
import ServiceLifecycle
import Testing

/// The eleven cases of Hummingbird 2.28.1's own persist tests
/// (`Tests/HummingbirdTests/PersistTests.swift`, written for its memory driver), written
/// again from the documented behaviour of `PersistDriver`, against `CarlosPersistDriver`
/// over `memory >>> memory`, through a Hummingbird `Application` and its router test client.
@Suite("Hummingbird's persist cases on CarlosPersistDriver")
struct HummingbirdPersistCasesTests {
  let driver = CarlosPersistDriver(memoryOverStore())

  private func withClient(
    services: [any Service] = [], _ body: @Sendable (any TestClientProtocol) async throws -> Void
  ) async throws {
    let app = Application(router: persistRouter(driver), services: services)
    try await app.test(.router, body)
  }

  private func body(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

  @Test("set then get answers the value (testSetGet)")
  func setGet() async throws {
    try await withClient { client in
      let tag = UUID().uuidString
      try await client.execute(uri: "/persist/\(tag)", method: .put, body: body("Persist"))
      try await client.execute(uri: "/persist/\(tag)", method: .get) { response in
        #expect(String(buffer: response.body) == "Persist")
      }
    }
  }

  @Test("create then get answers the value (testCreateGet)")
  func createGet() async throws {
    try await withClient { client in
      let tag = UUID().uuidString
      try await client.execute(uri: "/create/\(tag)", method: .put, body: body("Persist"))
      try await client.execute(uri: "/persist/\(tag)", method: .get) { response in
        #expect(String(buffer: response.body) == "Persist")
      }
    }
  }

  @Test("a second create of one key fails with PersistError.duplicate (testDoubleCreateFail)")
  func doubleCreateFails() async throws {
    try await withClient { client in
      let tag = UUID().uuidString
      try await client.execute(uri: "/create/\(tag)", method: .put, body: body("Persist")) {
        #expect($0.status == .ok)
      }
      try await client.execute(uri: "/create/\(tag)", method: .put, body: body("Persist")) {
        #expect($0.status == .conflict)
      }
    }
  }

  @Test("a second set overwrites the first (testSetTwice)")
  func setTwice() async throws {
    try await withClient { client in
      let tag = UUID().uuidString
      try await client.execute(uri: "/persist/\(tag)", method: .put, body: body("test1"))
      try await client.execute(uri: "/persist/\(tag)", method: .put, body: body("test2")) {
        #expect($0.status == .ok)
      }
      try await client.execute(uri: "/persist/\(tag)", method: .get) { response in
        #expect(String(buffer: response.body) == "test2")
      }
    }
  }

  @Test("a value set to expire at once is gone; one with 10 s left is there (testExpires)")
  func expires() async throws {
    try await withClient { client in
      let (gone, kept) = (UUID().uuidString, UUID().uuidString)
      try await client.execute(uri: "/persist/\(gone)/0", method: .put, body: body("ThisIsTest1"))
      try await client.execute(uri: "/persist/\(kept)/10", method: .put, body: body("ThisIsTest2"))
      try await Task.sleep(for: .seconds(1))
      try await client.execute(uri: "/persist/\(gone)", method: .get) {
        #expect($0.status == .noContent)
      }
      try await client.execute(uri: "/persist/\(kept)", method: .get) { response in
        #expect(String(buffer: response.body) == "ThisIsTest2")
      }
    }
  }

  @Test("getWithTTL answers the seconds left, at most the expiry given (testTTL)")
  func ttl() async throws {
    try await withClient { client in
      let tag = UUID().uuidString
      try await client.execute(uri: "/persist/\(tag)/10", method: .put, body: body("ThisIsTest2"))
      try await client.execute(uri: "/persist/\(tag)/ttl", method: .get) { response in
        let ttl = try #require(Int(String(buffer: response.body)))
        #expect(ttl <= 10 && ttl > 1)
      }
    }
  }

  @Test("a Codable value round-trips (testCodable)")
  func codable() async throws {
    struct Note: Codable {
      let buffer: String
    }
    let router = persistRouter(driver)
    router.put("/codable/:tag") { request, context -> HTTPResponse.Status in
      let body = try await request.body.collect(upTo: .max)
      try await driver.set(
        key: try context.parameters.require("tag"), value: Note(buffer: String(buffer: body)))
      return .ok
    }
    router.get("/codable/:tag") { _, context -> String? in
      try await driver.get(key: try context.parameters.require("tag"), as: Note.self)?.buffer
    }
    try await Application(router: router).test(.router) { client in
      let tag = UUID().uuidString
      try await client.execute(uri: "/codable/\(tag)", method: .put, body: body("Persist"))
      try await client.execute(uri: "/codable/\(tag)", method: .get) { response in
        #expect(String(buffer: response.body) == "Persist")
      }
    }
  }

  @Test("getting a value as a type it is not fails with invalidConversion (testInvalidGetAs)")
  func invalidGetAs() async throws {
    struct Note: Codable {
      let buffer: String
    }
    let router = persistRouter(driver)
    router.put("/invalid") { _, _ -> HTTPResponse.Status in
      try await driver.set(key: "test", value: Note(buffer: "hello"))
      return .ok
    }
    router.get("/invalid") { _, _ -> String? in
      do {
        return try await driver.get(key: "test", as: String.self)
      } catch let error as PersistError where error == .invalidConversion {
        throw HTTPError(.badRequest)
      }
    }
    try await Application(router: router).test(.router) { client in
      try await client.execute(uri: "/invalid", method: .put)
      try await client.execute(uri: "/invalid", method: .get) {
        #expect($0.status == .badRequest)
      }
    }
  }

  @Test("a removed value is gone (testRemove)")
  func remove() async throws {
    try await withClient { client in
      let tag = UUID().uuidString
      try await client.execute(uri: "/persist/\(tag)", method: .put, body: body("ThisIsTest1"))
      try await client.execute(uri: "/persist/\(tag)", method: .delete)
      try await client.execute(uri: "/persist/\(tag)", method: .get) {
        #expect($0.status == .noContent)
      }
    }
  }

  @Test("a key whose value expired can be set again (testExpireAndAdd)")
  func expireAndAdd() async throws {
    try await withClient { client in
      let tag = UUID().uuidString
      try await client.execute(uri: "/persist/\(tag)/0", method: .put, body: body("ThisIsTest1"))
      try await Task.sleep(for: .seconds(1))
      try await client.execute(uri: "/persist/\(tag)", method: .get) {
        #expect($0.status == .noContent)
      }
      try await client.execute(uri: "/persist/\(tag)/10", method: .put, body: body("ThisIsTest1")) {
        #expect($0.status == .ok)
      }
      try await client.execute(uri: "/persist/\(tag)", method: .get) { response in
        #expect(response.status == .ok)
        #expect(String(buffer: response.body) == "ThisIsTest1")
      }
    }
  }

  @Test("running as a service, tidying often, keeps values that have not expired (testTidy)")
  func tidy() async throws {
    let tidying = CarlosPersistDriver(memoryOverStore(), tidyInterval: .milliseconds(1))
    let app = Application(router: persistRouter(tidying), services: [tidying])
    try await app.test(.router) { client in
      let tag = UUID().uuidString
      try await client.execute(uri: "/persist/\(tag)/10", method: .put, body: body("NotExpired"))
      try await Task.sleep(for: .milliseconds(20))
      try await client.execute(uri: "/persist/\(tag)", method: .get) { response in
        #expect(String(buffer: response.body) == "NotExpired")
      }
    }
  }
}
#endif
