#if Vapor
import Carlos
import CarlosVapor
import Foundation
import Synchronization
import Vapor
import XCTVapor
import XCTest

/// A level whose every operation fails with `Outage`.
private struct DownLevel: CacheLevel {
  struct Outage: Error {}
  func get(_ key: String) -> Future<Data> { Future(Outage()) }
  func set(_ value: Data, forKey key: String) -> Future<Void> { Future(Outage()) }
  func clear() {}
  func onMemoryWarning() {}
}

private struct Note: Content, Equatable {
  var title: String
  var stars: Int
}

/// A clock whose every reading is one millisecond after the one before.
private final class SteppingClock: CacheClock, Sendable {
  private let readings = Mutex(0.0)
  func now() -> Date {
    let step = readings.withLock { count in
      count += 1
      return count
    }
    return Date(timeIntervalSinceNow: step / 1000)
  }
}

/// `app.caches.use(.carlos(pipeline))`: `app.cache` and `req.cache` over a Carlos pipeline.
final class CarlosCacheTests: XCTestCase {
  private var app: Application!
  private var upper: MemoryCacheLevel<String, Data>!
  private var lower: MemoryCacheLevel<String, Data>!

  override func setUp() async throws {
    app = try await Application.make(.testing)
    upper = MemoryCacheLevel<String, Data>(capacity: 1 << 20)
    lower = MemoryCacheLevel<String, Data>(capacity: 1 << 20)
    app.caches.use(.carlos(upper >>> lower))
  }

  override func tearDown() async throws {
    try await app.asyncShutdown()
    app = nil
  }

  func testAppCacheIsACarlosCache() {
    XCTAssertTrue(app.cache is CarlosCache)
  }

  func testAMissIsNil() async throws {
    let value = try await app.cache.get("absent", as: String.self)
    XCTAssertNil(value)
  }

  func testASetValueIsReadBackAndReachesEveryLevel() async throws {
    try await app.cache.set("greeting", to: "hello")
    let value: String? = try await app.cache.get("greeting")
    XCTAssertEqual(value, "hello")
    let stored = try await lower.get("greeting")
    XCTAssertEqual(try JSONDecoder().decode(String.self, from: stored), "hello")
    let above = try await upper.get("greeting")
    XCTAssertEqual(above, stored)
  }

  func testTheEventLoopFutureVariantsReadAndWrite() async throws {
    let cache = app.cache
    try await cache.set("n", to: 41).get()
    let read = try await cache.get("n", as: Int.self).get()
    XCTAssertEqual(read, 41)
    try await cache.set("n", to: 42, expiresIn: .minutes(1)).get()
    let typed: Int? = try await cache.get("n").get()
    XCTAssertEqual(typed, 42)
    try await cache.delete("n").get()
    let gone = try await cache.get("n", as: Int.self).get()
    XCTAssertNil(gone)
  }

  func testCodableValuesRoundTrip() async throws {
    let note = Note(title: "Carlos on Vapor", stars: 5)
    try await app.cache.set("note", to: note)
    let read = try await app.cache.get("note", as: Note.self)
    XCTAssertEqual(read, note)
  }

  func testSettingNilRemovesTheKeyFromEveryLevel() async throws {
    try await app.cache.set("k", to: "v")
    try await app.cache.set("k", to: String?.none)
    let value = try await app.cache.get("k", as: String.self)
    XCTAssertNil(value)
    let below = try? await lower.get("k")
    XCTAssertNil(below)
  }

  func testDeleteRemovesTheKey() async throws {
    try await app.cache.set("k", to: "v")
    try await app.cache.delete("k")
    let value = try await app.cache.get("k", as: String.self)
    XCTAssertNil(value)
  }

  func testExpiresInBecomesTheEntrysExpiryInEveryLevel() async throws {
    let before = Date()
    try await app.cache.set("session", to: "token", expiresIn: .minutes(5))
    let entry = try await lower.entry(forKey: "session")
    let expiresAt = try XCTUnwrap(entry.expiresAt)
    XCTAssertEqual(expiresAt.timeIntervalSince(before), 300, accuracy: 5)
    let above = try await upper.entry(forKey: "session")
    XCTAssertEqual(above.expiresAt, expiresAt)
  }

  func testExpiresInGivesEveryLevelOneDeadlineHoweverSlowlyTheyStore() async throws {
    // Each reading of this clock is a millisecond later than the last, as when the
    // lower level is slow or the clock ticks between the two stores.
    let clock = SteppingClock()
    let upper = MemoryCacheLevel<String, Data>(capacity: 1 << 20, clock: clock)
    let lower = MemoryCacheLevel<String, Data>(capacity: 1 << 20, clock: clock)
    app.caches.use(.carlos(upper >>> lower))
    try await app.cache.set("session", to: "token", expiresIn: .minutes(5))
    let above = try await upper.entry(forKey: "session")
    let below = try await lower.entry(forKey: "session")
    XCTAssertNotNil(above.expiresAt)
    XCTAssertEqual(above.expiresAt, below.expiresAt)
  }

  func testAnExpiredValueIsNil() async throws {
    try await app.cache.set("short", to: "lived", expiresIn: .seconds(1))
    let fresh = try await app.cache.get("short", as: String.self)
    XCTAssertEqual(fresh, "lived")
    try await Task.sleep(for: .milliseconds(1_200))
    let expired = try await app.cache.get("short", as: String.self)
    XCTAssertNil(expired)
  }

  func testAValueOfAnotherTypeFailsWithTheDecodingError() async throws {
    try await app.cache.set("k", to: [1, 2, 3])
    do {
      _ = try await app.cache.get("k", as: String.self)
      XCTFail("expected a DecodingError")
    } catch is DecodingError {}
  }

  func testAFailureOtherThanAMissIsThrownUnchanged() async throws {
    app.caches.use(.carlos(DownLevel()))
    do {
      _ = try await app.cache.get("k", as: String.self)
      XCTFail("expected Outage")
    } catch is DownLevel.Outage {}
    do {
      try await app.cache.set("k", to: "v")
      XCTFail("expected Outage")
    } catch is DownLevel.Outage {}
  }

  func testForRequestBindsTheCacheToTheRequestsEventLoop() async throws {
    app.get("loop") { req -> String in
      let cache = try XCTUnwrap(req.cache as? CarlosCache)
      return cache.eventLoop === req.eventLoop ? "same" : "other"
    }
    try await app.test(.GET, "loop") { response async in
      XCTAssertEqual(response.body.string, "same")
    }
  }

  func testReqCacheFuturesCompleteOnTheRequestsEventLoop() async throws {
    app.get("hop") { req -> EventLoopFuture<String> in
      req.cache.get("nothing", as: String.self).map { _ in
        req.eventLoop.inEventLoop ? "on the request's loop" : "elsewhere"
      }
    }
    try await app.test(.GET, "hop") { response async in
      XCTAssertEqual(response.body.string, "on the request's loop")
    }
  }

  func testRoutesUseReqCacheAsync() async throws {
    app.put("notes", ":id") { req async throws -> HTTPStatus in
      let id = try req.parameters.require("id")
      try await req.cache.set("note:\(id)", to: try req.content.decode(Note.self))
      return .created
    }
    app.get("notes", ":id") { req async throws -> Note in
      let id = try req.parameters.require("id")
      guard let note = try await req.cache.get("note:\(id)", as: Note.self) else {
        throw Abort(.notFound)
      }
      return note
    }
    let note = Note(title: "cached", stars: 3)
    try await app.test(.GET, "notes/1") { response async in
      XCTAssertEqual(response.status, .notFound)
    }
    try await app.test(
      .PUT, "notes/1",
      beforeRequest: { request async throws in try request.content.encode(note) },
      afterResponse: { response async in XCTAssertEqual(response.status, .created) })
    try await app.test(.GET, "notes/1") { response async throws in
      XCTAssertEqual(response.status, .ok)
      XCTAssertEqual(try response.content.decode(Note.self), note)
    }
  }

  func testAValueFoundBelowIsCopiedUp() async throws {
    try await lower.set(try JSONEncoder().encode("from below"), forKey: "k")
    let value = try await app.cache.get("k", as: String.self)
    XCTAssertEqual(value, "from below")
    let above = try await upper.get("k")
    XCTAssertEqual(try JSONDecoder().decode(String.self, from: above), "from below")
  }
}
#endif
