#if HTTP
import AsyncHTTPClient
import Carlos
import CarlosHTTP
import Foundation
import NIOCore
import Synchronization
import Testing

@testable import CarlosCachingProxy

/// Reads the whole body of `handed`.
private func readAll(_ handed: HTTPResponseHandoff.Handed) async throws -> Int {
  var count = 0
  while let chunk = try await handed.body.next() { count += chunk.readableBytes }
  return count
}

@Suite("HTTPResponseHandoff")
struct HTTPResponseHandoffTests {
  @Test(
    "A response the handoff asks for comes back as its head at once; its body is read from the handoff"
  )
  func streamsWhatItIsAskedFor() async throws {
    try await withServer { _ in
      .respond(status: 200, headers: [("X-Kind", "private")], body: Data(count: 300_000))
    } run: { server, client in
      let http = HTTPFetcher(client: client)
      let handoff = HTTPResponseHandoff { status, headers, length in
        status == 200 && headers["X-Kind"] == "private" && length == 300_000
      }
      let response = try await HTTPResponseHandoff.$current.withValue(handoff) {
        try await http.get(HTTPRequestKey(server.url("/p"))).value
      }
      #expect(response.body.isEmpty)
      #expect(response.headers["Cache-Control"] == "no-store")
      let handed = try #require(handoff.body(for: response))
      #expect(handed.head.headers["X-Kind"] == "private")
      #expect(handed.head.headers[HTTPResponseHandoff.field] == nil)
      #expect(try await readAll(handed) == 300_000)
      #expect(handoff.body(for: response) == nil, "a body is taken once")
    }
  }

  @Test(
    "Above the limit a body is handed over (declared or found while reading); without a handoff it fails"
  )
  func aboveTheLimit() async throws {
    try await withServer { request in
      request.uri == "/declared"
        ? .stream(chunk: 10_000, total: 200_000, contentLength: 200_000)
        : .stream(chunk: 10_000, total: 200_000, contentLength: nil)
    } run: { server, client in
      let http = HTTPFetcher(client: client, maximumResponseSize: 50_000)
      for path in ["/declared", "/chunked"] {
        await #expect(throws: HTTPFetcherError.responseTooLarge(limit: 50_000)) {
          try await http.get(HTTPRequestKey(server.url(path))).value
        }
        let handoff = HTTPResponseHandoff()
        let response = try await HTTPResponseHandoff.$current.withValue(handoff) {
          try await http.get(HTTPRequestKey(server.url(path))).value
        }
        let handed = try #require(handoff.body(for: response), "\(path)")
        #expect(try await readAll(handed) == 200_000, "\(path): prefix and rest, every byte")
      }
    }
  }

  @Test("A HEAD of a resource above the limit is its head, not an error")
  func headAboveTheLimit() async throws {
    try await withServer { _ in
      .respond(status: 200, headers: [("Content-Length", "900000")], body: Data())
    } run: { server, client in
      let http = HTTPFetcher(client: client, maximumResponseSize: 1_000)
      let response = try await http.get(HTTPRequestKey(server.url("/big"), method: "HEAD")).value
      #expect(response.status == 200)
      #expect(response.headers["Content-Length"] == "900000")
    }
  }
}

@Suite("RateLimitedLog")
struct RateLimitedLogTests {
  @Test("One line per kind and interval; the next line counts those left out")
  func rateLimits() async throws {
    let lines = Mutex<[String]>([])
    let log = RateLimitedLog(prefix: "p", interval: .seconds(3600)) { line in
      lines.withLock { $0.append(line) }
    }
    for _ in 0..<100 { log.report("upstream failed: refused") }
    log.report("other: thing")
    #expect(lines.withLock { $0 } == ["p: upstream failed: refused", "p: other: thing"])
    let quick = RateLimitedLog(prefix: "p", interval: .zero) { line in
      lines.withLock { $0.append(line) }
    }
    quick.report("a: 1")
    quick.report("a: 2")
    #expect(lines.withLock { $0.suffix(2) } == ["p: a: 1", "p: a: 2"])
  }
}
#endif
