#if HTTP
import AsyncHTTPClient
import Carlos
import CarlosHTTP
import Foundation
import NIOCore
import Testing

/// The responses a handoff observed, for a test to read.
private final class Observed: Sendable {
  private let stream: AsyncStream<HTTPResponseHandoff.Handed>
  private let continuation: AsyncStream<HTTPResponseHandoff.Handed>.Continuation

  init() {
    (stream, continuation) = AsyncStream.makeStream()
  }

  /// What the handoff calls.
  var receive: @Sendable (HTTPResponseHandoff.Handed) -> Void {
    { [continuation] in continuation.yield($0) }
  }

  /// Every response observed so far, once no more can come.
  func all() async -> [HTTPResponseHandoff.Handed] {
    continuation.finish()
    var all: [HTTPResponseHandoff.Handed] = []
    for await handed in stream { all.append(handed) }
    return all
  }
}

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
      let observed = Observed()
      let handoff = HTTPResponseHandoff(
        shouldObserve: { status, headers, length in
          status == 200 && headers["X-Kind"] == "stored" && length == 300_000
        }, whenObserved: observed.receive)
      let response = try await HTTPResponseHandoff.$current.withValue(handoff) {
        try await http.get(HTTPRequestKey(server.url("/o"))).value
      }
      #expect(response.body == body)
      #expect(response.headers["Cache-Control"] == nil)
      // One response per handoff: a second fetch is not observed.
      let again = try await HTTPResponseHandoff.$current.withValue(handoff) {
        try await http.get(HTTPRequestKey(server.url("/o"))).value
      }
      #expect(again.body == body)
      let all = await observed.all()
      #expect(all.count == 1)
      let handed = try #require(all.first)
      var copy = Data()
      while let chunk = try await handed.body.next() {
        copy.append(contentsOf: chunk.readableBytesView)
      }
      #expect(handed.head.status == 200)
      #expect(copy == body)
    }
  }

  @Test("Once observing stopped, no fetch is observed")
  func stopped() async throws {
    try await withServer { _ in
      ok("x")
    } run: { server, client in
      let http = HTTPFetcher(client: client)
      let observed = Observed()
      let handoff = HTTPResponseHandoff(
        shouldObserve: { _, _, _ in true }, whenObserved: observed.receive)
      handoff.stopObserving()
      let response = try await HTTPResponseHandoff.$current.withValue(handoff) {
        try await http.get(HTTPRequestKey(server.url("/o"))).value
      }
      #expect(response.body == Data("x".utf8))
      #expect(await observed.all().isEmpty)
    }
  }

  @Test("When the body stops coming, the observed copy fails with the fetch's timeout")
  func observedTimeout() async throws {
    // The head and a first part, then nothing.
    let origin = try await GatedOrigin(
      body: Data(count: 500_000), firstPart: 100_000, headers: [])
    try await withClient { client in
      let http = HTTPFetcher(client: client, timeout: .seconds(2))
      let observed = Observed()
      let handoff = HTTPResponseHandoff(
        shouldObserve: { _, _, _ in true }, whenObserved: observed.receive)
      await #expect(throws: HTTPFetcherError.timedOut(.seconds(2))) {
        try await HTTPResponseHandoff.$current.withValue(handoff) {
          try await http.get(HTTPRequestKey(origin.url.appendingPathComponent("s"))).value
        }
      }
      let handed = try #require(await observed.all().first)
      var count = 0
      await #expect(throws: HTTPFetcherError.timedOut(.seconds(2))) {
        while let chunk = try await handed.body.next() { count += chunk.readableBytes }
      }
      #expect(count >= 100_000 && count < 500_000, "the part that came, not the whole")
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
#endif
