#if HTTP
import AsyncHTTPClient
import Carlos
import CarlosCachingProxy
import CarlosHTTP
import Foundation
import Synchronization
import Testing

/// Runs `body` with a proxy (in this process) in front of a test origin answering with `handler`.
private func withProxy(
  limits: CachingProxyLimits = CachingProxyLimits(), arguments: [String] = [],
  log: (@Sendable (String) -> Void)? = nil,
  origin handler: @escaping @Sendable (TestServer.Request) -> TestServer.Reply,
  run body: (CachingProxyServer, TestServer) async throws -> Void
) async throws {
  let origin = try await TestServer(handler: handler)
  try await withProxy(
    upstream: origin.url(""), limits: limits, arguments: arguments, log: log,
    stopOrigin: { await origin.stop() }
  ) { proxy in
    try await body(proxy, origin)
  }
}

/// A body of `count` bytes that are not all the same.
private func pattern(_ count: Int) -> Data {
  Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
}

/// One raw request on a new connection, read until the server closes it.
private func fetch(
  port: Int, _ request: String, chunk: Int = 64 << 10, pause: Duration? = nil
) async throws -> RawResponse? {
  try await onThread {
    let client = try RawClient(port: port)
    client.send(request)
    return RawResponse(client.readAll(chunk: chunk, pause: pause))
  }
}

@Suite("carlos-caching-proxy under real traffic")
struct CachingProxyOperationTests {
  @Test(
    "Every byte of a cached body reaches HTTP/1.0, Connection: close, slow and keep-alive clients",
    arguments: [1, 8, 40, 64])
  func wholeBodies(megabytes: Int) async throws {
    let body = pattern(megabytes * 1_000_000)
    try await withProxy(origin: { _ in
      .respond(status: 200, headers: [("Cache-Control", "max-age=600")], body: body)
    }) { proxy, origin in
      let port = proxy.port
      let miss = try await fetch(port: port, "GET /big HTTP/1.0\r\n\r\n")
      #expect(miss?.status == 200)
      #expect(miss?.body.count == body.count)
      let requests = [
        ("HTTP/1.0", "GET /big HTTP/1.0\r\n\r\n", nil as Duration?),
        ("Connection: close", "GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", nil),
        (
          "slow reader", "GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
          .milliseconds(1)
        ),
      ]
      for (name, request, pause) in requests {
        let response = try await fetch(port: port, request, chunk: 16 << 10, pause: pause)
        #expect(response?.status == 200, "\(name)")
        #expect(response?.header("Content-Length") == String(body.count), "\(name)")
        #expect(response?.body.count == body.count, "\(name): bytes received")
        #expect(response.map { Data($0.body) == body } == true, "\(name): the bytes themselves")
      }
      #expect(origin.requests.count == 1)
    }
  }

  @Test("A keep-alive client gets two whole bodies on one connection")
  func keepAlive() async throws {
    let body = pattern(3_000_000)
    try await withProxy(origin: { _ in
      .respond(status: 200, headers: [("Cache-Control", "max-age=600")], body: body)
    }) { proxy, _ in
      let port = proxy.port
      let received = try await onThread {
        let client = try RawClient(port: port)
        client.send(
          "GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        return client.readAll()
      }
      let first = try #require(RawResponse(received))
      #expect(first.status == 200)
      let rest = Array(first.body.dropFirst(body.count))
      let second = try #require(RawResponse(rest))
      #expect(second.status == 200)
      #expect(second.body.count == body.count)
    }
  }

  @Test("Pipelined requests, hits, misses and passes mixed, are answered in the order sent")
  func pipelining() async throws {
    try await withProxy(origin: { request in
      .delayed(
        .milliseconds(request.uri.hasSuffix("slow") ? 200 : 0), status: 200,
        headers: [("Cache-Control", request.uri.hasPrefix("/pass") ? "no-store" : "max-age=600")],
        body: Data(request.uri.utf8))
    }) { proxy, _ in
      let port = proxy.port
      _ = try await fetch(port: port, "GET /hit/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      let paths = ["/hit/1", "/miss/slow", "/hit/1", "/pass/2", "/miss/3", "/pass/slow", "/hit/1"]
      let received = try await onThread {
        let client = try RawClient(port: port)
        client.send(
          paths.map { "GET \($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
            + "GET /last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return client.readAll()
      }
      var rest = received
      var bodies: [String] = []
      while let response = RawResponse(rest), let length = response.header("Content-Length") {
        let count = try #require(Int(length))
        bodies.append(String(decoding: response.body.prefix(count), as: UTF8.self))
        rest = Array(response.body.dropFirst(count))
      }
      #expect(bodies == paths + ["/last"])
      #expect(rest.isEmpty)
    }
  }

  @Test(
    "An origin that refuses connections costs a cold request no connect timeout, and its stale-if-error copy is served",
    .timeLimit(.minutes(1)))
  func refusedOriginFailsAtOnce() async throws {
    // A connect timeout far above the test's time limit: a cold request that waited
    // for it (once, or twice with the retry) would not finish in time.
    try await withProxy(
      arguments: ["--upstream-connect-timeout", "300"],
      origin: { _ in
        .respond(
          status: 200, headers: [("Cache-Control", "max-age=1, stale-if-error=600")],
          body: Data("kept".utf8))
      }
    ) { proxy, origin in
      let port = proxy.port
      let warm = try await fetch(
        port: port, "GET /kept HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      #expect(warm?.status == 200)
      await origin.stop()
      try await Task.sleep(for: .milliseconds(1100))
      let cold = try await fetch(
        port: port, "GET /cold HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      #expect(cold?.status == 502)
      let stale = try await fetch(
        port: port, "GET /kept HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      #expect(stale?.status == 200)
      #expect(stale.map { String(decoding: $0.body, as: UTF8.self) } == "kept")
    }
  }

  @Test("Requests that break the rules are refused with the status that names why")
  func refusals() async throws {
    let limits = CachingProxyLimits(
      maximumTargetLength: 1_000, maximumHeaderBytes: 8_000, maximumHeaderCount: 50,
      maximumRequestBodySize: 1_000)
    try await withProxy(limits: limits, origin: { _ in ok("fine") }) { proxy, origin in
      let port = proxy.port
      let noHost = try await fetch(port: port, "GET / HTTP/1.1\r\nConnection: close\r\n\r\n")
      #expect(noHost?.status == 400)
      let twoHosts = try await fetch(
        port: port, "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n")
      #expect(twoHosts?.status == 400)
      let twoHostsInOne = try await fetch(
        port: port, "GET / HTTP/1.1\r\nHost: a, b\r\nConnection: close\r\n\r\n")
      #expect(twoHostsInOne?.status == 400)
      let longTarget = try await fetch(
        port: port, "GET /\(String(repeating: "a", count: 2_000)) HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(longTarget?.status == 414)
      let hugeTarget = "/\(String(repeating: "a", count: 100_000))"
      let hugeLine = try await fetch(port: port, "GET \(hugeTarget) HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(hugeLine?.status == 414)
      let (first, second) = try await onThread {
        let client = try RawClient(port: port)
        client.send("GET /first HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = RawResponse(client.read(within: 5))
        client.send("GET \(hugeTarget) HTTP/1.1\r\nHost: x\r\n\r\n")
        return (first, RawResponse(client.readAll()))
      }
      #expect(first?.status == 200)
      #expect(second?.status == 414)
      let manyFields = (0..<200).map { "X-F\($0): v\r\n" }.joined()
      let tooMany = try await fetch(port: port, "GET / HTTP/1.1\r\nHost: x\r\n\(manyFields)\r\n")
      #expect(tooMany?.status == 431)
      let hugeField = "X-Big: \(String(repeating: "b", count: 20_000))\r\n"
      let tooLarge = try await fetch(port: port, "GET / HTTP/1.1\r\nHost: x\r\n\(hugeField)\r\n")
      #expect(tooLarge?.status == 431)
      let bigBody = try await fetch(
        port: port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")
      #expect(bigBody?.status == 413)
      let http10 = try await fetch(port: port, "GET /old HTTP/1.0\r\n\r\n")
      #expect(http10?.status == 200)
      #expect(origin.requests.count == 2)
    }
  }

  @Test("Expect: 100-continue is answered at once, and the request then goes on")
  func continueAnswered() async throws {
    try await withProxy(origin: { _ in ok("posted") }) { proxy, _ in
      let port = proxy.port
      let (interim, final) = try await onThread { () -> ([UInt8], [UInt8]) in
        let client = try RawClient(port: port)
        client.send(
          "POST /form HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n"
        )
        // The interim response before the body is sent (waiting up to 30 s, for a
        // busy machine).
        var interim: [UInt8] = []
        let deadline = Date().addingTimeInterval(30)
        while !String(decoding: interim, as: UTF8.self).contains("\r\n\r\n"), Date() < deadline {
          interim += client.read(within: 0.2)
        }
        client.send("hello")
        return (interim, client.readAll())
      }
      #expect(String(decoding: interim, as: UTF8.self).hasPrefix("HTTP/1.1 100 Continue\r\n"))
      #expect(RawResponse(final)?.status == 200)
      #expect(RawResponse(final).map { String(decoding: $0.body, as: UTF8.self) } == "posted")
    }
  }

  @Test("A client that sends its head too slowly, or idles after a response, is closed")
  func headerAndIdleTimeouts() async throws {
    let limits = CachingProxyLimits(
      headerTimeout: .milliseconds(500), idleTimeout: .milliseconds(500))
    try await withProxy(limits: limits, origin: { _ in ok() }) { proxy, _ in
      let port = proxy.port
      let slowlorisClosed = try await onThread {
        let client = try RawClient(port: port)
        client.send("GET / HTTP/1.1\r\nHost: x\r\n")
        return client.isClosed(within: 20)
      }
      #expect(slowlorisClosed)
      let idleClosed = try await onThread { () -> Bool in
        let client = try RawClient(port: port)
        client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        // The response arrives, then nothing: the connection must close.
        return client.isClosed(within: 20)
      }
      #expect(idleClosed)
      #expect(proxy.counters[.timeouts] >= 2)
    }
  }

  @Test("A client that stops reading is closed after the send timeout")
  func sendTimeout() async throws {
    let body = pattern(20_000_000)
    let limits = CachingProxyLimits(sendTimeout: .milliseconds(500))
    try await withProxy(
      limits: limits,
      origin: { _ in
        .respond(status: 200, headers: [("Cache-Control", "max-age=600")], body: body)
      }
    ) { proxy, _ in
      let port = proxy.port
      let client = try await onThread { () -> RawClientBox in
        let client = try RawClient(port: port)
        client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        return RawClientBox(client)
      }
      var closed = false
      for _ in 0..<300 where !closed {
        try await Task.sleep(for: .milliseconds(100))
        closed = proxy.counters[.timeouts] >= 1 && proxy.counters.openConnections == 0
      }
      #expect(closed)
      withExtendedLifetime(client) {}
    }
  }

  @Test(
    "Clients that never read a streamed body are all closed after the send timeout, however the socket took its bytes",
    .timeLimit(.minutes(1)))
  func sendTimeoutWhileStreaming() async throws {
    // Two clients: before the fix, at least one stayed open in about three runs of four;
    // more clients load the machine enough to slow the suite's other timed tests.
    let clients = 2
    let limits = CachingProxyLimits(sendTimeout: .seconds(1))
    try await withProxy(
      limits: limits,
      origin: { request in
        // Chunk sizes that do not divide the write window, so that the socket is
        // full with a few bytes of a window still waiting for it; not stored, so
        // the origin is read only as fast as the client reads.
        let index = Int(request.uri.split(separator: "/").last ?? "") ?? 0
        return .stream(
          chunk: 4_001 + index * 3_001, total: nil, contentLength: nil,
          headers: [("Cache-Control", "no-store")])
      }
    ) { proxy, origin in
      let port = proxy.port
      let connections = try await onThread { () -> [RawClientBox] in
        try (0..<clients).map { index in
          // A small receive buffer: the proxy's socket is full sooner.
          let client = try RawClient(port: port, receiveBuffer: 64 << 10)
          client.send("GET /endless/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
          return RawClientBox(client)
        }
      }
      // Wait for both: a connection the proxy has not yet counted is not open either.
      var open = clients
      var timeouts = 0
      for _ in 0..<300 where open > 0 || timeouts < clients {
        try await Task.sleep(for: .milliseconds(100))
        open = proxy.counters.openConnections
        timeouts = proxy.counters[.timeouts]
      }
      #expect(open == 0, "connections still open 30 s after a 1 s send timeout")
      #expect(timeouts >= clients)
      var streaming = origin.openConnections
      for _ in 0..<50 where streaming > 0 {
        try await Task.sleep(for: .milliseconds(100))
        streaming = origin.openConnections
      }
      #expect(streaming == 0, "the origin still streams to the proxy for clients it closed")
      withExtendedLifetime(connections) {}
    }
  }

  @Test("Connections above the maximum get a 503 at once; the others are served")
  func connectionLimit() async throws {
    let limits = CachingProxyLimits(maximumConnections: 2)
    try await withProxy(limits: limits, origin: { _ in ok() }) { proxy, _ in
      let port = proxy.port
      let counters = proxy.counters
      let statuses = try await onThread { () -> [Int?] in
        let held = try (0..<2).map { _ in try RawClient(port: port) }
        // Connections are counted on their own event loops: the third is opened
        // once both are counted.
        for _ in 0..<3000 where counters.openConnections < 2 {
          Thread.sleep(forTimeInterval: 0.01)
        }
        let third = try RawClient(port: port)
        third.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let refused = RawResponse(third.readAll())?.status
        held[0].send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let served = RawResponse(held[0].readAll())?.status
        return [refused, served]
      }
      #expect(statuses == [503, 200])
      #expect(proxy.counters[.connectionsRefused] == 1)
    }
  }

  @Test("The access log has one line per request: status, bytes, hit or miss")
  func accessLog() async throws {
    let lines = Mutex<[String]>([])
    try await withProxy(
      log: { line in lines.withLock { $0.append(line) } },
      origin: { _ in ok("twelve bytes", [("Cache-Control", "max-age=600")]) }
    ) { proxy, _ in
      let port = proxy.port
      for _ in 0..<2 { _ = try await fetch(port: port, "GET /logged HTTP/1.0\r\n\r\n") }
      let logged = lines.withLock { $0 }
      #expect(logged.count == 2)
      #expect(logged.first?.contains(" GET /logged 200 12 miss ") == true)
      #expect(logged.last?.contains(" GET /logged 200 12 hit ") == true)
      #expect(proxy.counters[.hits] == 1)
      #expect(proxy.counters[.misses] == 1)
      #expect(proxy.counters[.originFetches] == 1)
      #expect(proxy.counters.text.contains("carlos_proxy_origin_fetches_total 1\n"))
      #expect(proxy.counters.text.contains("carlos_proxy_stored_entries 1\n"))
    }
  }

  @Test(
    "200 concurrent requests for one cold URL make one origin fetch; the access log tells who waited"
  )
  func collapsing() async throws {
    let lines = Mutex<[String]>([])
    try await withProxy(
      log: { line in lines.withLock { $0.append(line) } },
      origin: { _ in
        .delayed(
          .milliseconds(500), status: 200, headers: [("Cache-Control", "max-age=600")],
          body: Data("cold".utf8))
      }
    ) { proxy, origin in
      let url = "http://127.0.0.1:\(proxy.port)/cold"
      var configuration = HTTPClient.Configuration()
      configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 200
      try await withClient(configuration) { client in
        try await withThrowingTaskGroup(of: Int.self) { group in
          for _ in 0..<200 {
            group.addTask {
              let response = try await client.execute(
                HTTPClientRequest(url: url), timeout: .seconds(60))
              _ = try await response.body.collect(upTo: 1 << 20)
              return Int(response.status.code)
            }
          }
          for try await status in group { #expect(status == 200) }
        }
      }
      #expect(origin.requests.count == 1)
      #expect(proxy.counters[.originFetches] == 1)
      #expect(proxy.counters[.misses] == 1)
      #expect(proxy.counters[.collapsed] + proxy.counters[.hits] == 199)
      #expect(proxy.counters[.collapsed] >= 1)
      #expect(
        lines.withLock { $0.filter { $0.contains(" collapsed ") }.count }
          == proxy.counters[.collapsed])
    }
  }

  @Test("A drain lets the response in flight finish, then refuses new connections")
  func drain() async throws {
    let body = pattern(2_000_000)
    try await withProxy(origin: { _ in
      .delayed(.milliseconds(500), status: 200, headers: [], body: body)
    }) { proxy, origin in
      let port = proxy.port
      async let inFlight = fetch(port: port, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(await origin.wait(upTo: .seconds(30)) { origin.requests.count == 1 })
      await proxy.drain()
      let response = try await inFlight
      #expect(response?.status == 200)
      #expect(response?.body.count == body.count)
      #expect(response?.header("Connection") == "close")
      #expect(throws: RawClientError.self) { try RawClient(port: port) }
    }
  }

  @Test("A response above --max-object-size streams through whole, and is not stored")
  func largeResponseStreams() async throws {
    let total = 20 << 20
    try await withProxy(
      arguments: ["--max-object-size", "1000000"],
      origin: { _ in
        .stream(chunk: 64 << 10, total: total, contentLength: total)
      }
    ) { proxy, origin in
      let port = proxy.port
      for request in [
        "GET /large HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /large HTTP/1.0\r\n\r\n",
      ] {
        let response = try await fetch(port: port, request, chunk: 256 << 10)
        #expect(response?.status == 200)
        #expect(response?.header("Content-Length") == String(total))
        #expect(response?.header("X-Carlos-Handoff") == nil)
        #expect(response?.body.count == total)
      }
      #expect(origin.requests.count == 2)
    }
  }

  @Test(
    "A body without a length streams chunked to HTTP/1.1 clients and until the close to HTTP/1.0 ones"
  )
  func unknownLengthStreams() async throws {
    let total = 100 * 50_000
    try await withProxy(
      arguments: ["--max-object-size", "1000000"],
      origin: { _ in
        .stream(chunk: 50_000, total: total, contentLength: nil)
      }
    ) { proxy, _ in
      let port = proxy.port
      let old = try await fetch(port: port, "GET /chunked HTTP/1.0\r\n\r\n", chunk: 256 << 10)
      #expect(old?.status == 200)
      #expect(old?.body.count == total)
      let chunked = try await fetch(
        port: port, "GET /chunked HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      #expect(chunked?.header("Transfer-Encoding") == "chunked")
      #expect((chunked?.body.count ?? 0) > total)
    }
  }

  @Test("Its options: every one parsed, and --help lists them all")
  func options() throws {
    let options = try CachingProxyOptions(arguments: [
      "--upstream", "http://127.0.0.1:8000", "--port", "0", "--max-object-size", "1000",
      "--header-timeout", "1.5", "--idle-timeout", "2", "--body-timeout", "3",
      "--send-timeout", "4", "--max-connections", "10", "--access-log", "--metrics-port", "9",
      "--max-header-bytes", "100", "--max-header-count", "5", "--max-target-length", "50",
      "--max-request-body", "7", "--upstream-connect-timeout", "0.5", "--upstream-timeout", "6",
      "--upstream-connections", "8", "--store-set-cookie",
    ])
    #expect(options.storesResponsesWithSetCookie)
    #expect(CachingProxy.policy(options).storesResponsesWithSetCookie)
    #expect(options.maximumObjectSize == 1000)
    #expect(options.limits.headerTimeout == .milliseconds(1500))
    #expect(options.limits.idleTimeout == .seconds(2))
    #expect(options.limits.bodyTimeout == .seconds(3))
    #expect(options.limits.sendTimeout == .seconds(4))
    #expect(options.limits.maximumConnections == 10)
    #expect(options.limits.maximumHeaderBytes == 100)
    #expect(options.limits.maximumHeaderCount == 5)
    #expect(options.limits.maximumTargetLength == 50)
    #expect(options.limits.maximumRequestBodySize == 7)
    #expect(options.upstreamConnectTimeout == .milliseconds(500))
    #expect(options.upstreamTimeout == .seconds(6))
    #expect(options.upstreamConnections == 8)
    #expect(options.accessLog)
    #expect(options.metricsPort == 9)
    for name in [
      "--upstream", "--port", "--host", "--storage", "--capacity", "--max-object-size",
      "--max-request-body", "--header-timeout", "--idle-timeout", "--body-timeout",
      "--send-timeout", "--max-connections", "--max-header-bytes", "--max-header-count",
      "--max-target-length", "--upstream-connect-timeout", "--upstream-timeout",
      "--upstream-connections", "--store-set-cookie", "--access-log", "--metrics-port", "--help",
    ] {
      #expect(CachingProxyOptions.help.contains(name), "\(name)")
    }
    #expect(throws: CachingProxyError.self) {
      try CachingProxyOptions(arguments: [
        "--upstream", "http://x", "--port", "1", "--send-timeout", "-1",
      ])
    }
  }
}

/// Keeps a client open across an await.
private final class RawClientBox: @unchecked Sendable {
  // Only held, never used from two threads.
  let client: RawClient
  init(_ client: RawClient) { self.client = client }
}
#endif
