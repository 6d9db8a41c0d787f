import AsyncHTTPClient
import Carlos
import CarlosHTTP
import Foundation
import NIOCore
import Testing

@Suite("HTTPResponseHandoff observation")
struct HTTPResponseObservationTests {
  @Test(
    "An observed response is seen as it is collected: same head and bytes, and the fetcher still answers with the whole"
  )
  func observesWhileCollecting() async throws {
    let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    try await withServer { _ in
      .respond(status: 200, headers: [("X-Kind", "stored")], body: body)
    } run: { server, client in
      let http = HTTPFetcher(client: client)
      let handoff = HTTPResponseHandoff(shouldObserve: { status, headers, length in
        status == 200 && headers["X-Kind"] == "stored" && length == 300_000
      })
      async let observed: (Int, Data)? = {
        guard let handed = await handoff.observed() else { return nil }
        var copy = Data()
        while let chunk = try await handed.body.next() {
          copy.append(contentsOf: chunk.readableBytesView)
        }
        return (handed.head.status, copy)
      }()
      let response = try await HTTPResponseHandoff.$current.withValue(handoff) {
        try await http.get(HTTPRequestKey(server.url("/o"))).value
      }
      handoff.stopObserving()
      #expect(response.body == body)
      #expect(response.headers["Cache-Control"] == nil)
      let (status, copy) = try #require(try await observed)
      #expect(status == 200)
      #expect(copy == body)
      // One response per handoff: a second fetch is not observed.
      let again = try await HTTPResponseHandoff.$current.withValue(handoff) {
        try await http.get(HTTPRequestKey(server.url("/o"))).value
      }
      #expect(again.body == body)
      #expect(await handoff.observed() == nil)
    }
  }

  @Test("Once observing stopped, observed() is nil and no fetch is observed")
  func stopped() async throws {
    try await withServer { _ in
      ok("x")
    } run: { server, client in
      let http = HTTPFetcher(client: client)
      let handoff = HTTPResponseHandoff(shouldObserve: { _, _, _ in true })
      async let observed = handoff.observed()
      handoff.stopObserving()
      #expect(await observed == nil)
      let response = try await HTTPResponseHandoff.$current.withValue(handoff) {
        try await http.get(HTTPRequestKey(server.url("/o"))).value
      }
      #expect(response.body == Data("x".utf8))
      #expect(await handoff.observed() == nil)
    }
  }

  @Test("When the body stops coming, the observed copy fails with the fetch's timeout")
  func observedTimeout() async throws {
    // The head and a first part, then nothing.
    let origin = try await GatedOrigin(
      body: Data(count: 500_000), firstPart: 100_000, headers: [])
    try await withClient { client in
      let http = HTTPFetcher(client: client, timeout: .seconds(2))
      let handoff = HTTPResponseHandoff(shouldObserve: { _, _, _ in true })
      async let copied: Result<Int, any Error>? = {
        guard let handed = await handoff.observed() else { return nil }
        var count = 0
        do {
          while let chunk = try await handed.body.next() { count += chunk.readableBytes }
          return .success(count)
        } catch {
          return .failure(error)
        }
      }()
      await #expect(throws: HTTPFetcherError.timedOut(.seconds(2))) {
        try await HTTPResponseHandoff.$current.withValue(handoff) {
          try await http.get(HTTPRequestKey(origin.url.appendingPathComponent("s"))).value
        }
      }
      handoff.stopObserving()
      let result = try #require(await copied)
      #expect(throws: HTTPFetcherError.timedOut(.seconds(2))) { try result.get() }
    }
    await origin.stop()
  }
}

@Suite("HTTPFetcher timeouts on one watcher")
struct HTTPFetcherWatcherTests {
  @Test(
    "Concurrent requests on one fetcher: the silent ones time out, the others succeed, and later ones are watched too"
  )
  func concurrentTimeouts() async throws {
    try await withServer { request in
      request.uri.hasPrefix("/hang") ? .hang : ok("fine")
    } run: { server, client in
      let http = HTTPFetcher(client: client, timeout: .seconds(2))
      let started = ContinuousClock.now
      let results = try await concurrently(8) { index -> Bool in
        do {
          _ = try await http.get(
            HTTPRequestKey(server.url(index % 2 == 0 ? "/hang\(index)" : "/ok"))
          ).value
          return index % 2 == 1
        } catch HTTPFetcherError.timedOut {
          return index % 2 == 0
        }
      }
      #expect(results.allSatisfy { $0 })
      #expect(ContinuousClock.now - started < .seconds(20))
      // After every watched request ended, a new one is watched again.
      await #expect(throws: HTTPFetcherError.timedOut(.seconds(2))) {
        try await http.get(HTTPRequestKey(server.url("/hang-later"))).value
      }
      let deadlined = HTTPFetcher(
        client: client, timeout: .seconds(10), deadline: .seconds(2))
      await #expect(throws: HTTPFetcherError.deadlineExceeded(.seconds(2))) {
        try await deadlined.get(HTTPRequestKey(server.url("/hang-deadline"))).value
      }
    }
  }
}
