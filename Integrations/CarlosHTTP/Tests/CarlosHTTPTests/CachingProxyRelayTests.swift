#if HTTP
import AsyncHTTPClient
import Carlos
import CarlosCachingProxy
import CarlosHTTP
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` with a proxy (in this process) in front of `origin`.
private func withProxy(
  before origin: GatedOrigin, arguments: [String] = [], log: (@Sendable (String) -> Void)? = nil,
  run body: (CachingProxyServer) async throws -> Void
) async throws {
  try await withProxy(
    upstream: origin.url, arguments: arguments, log: log, stopOrigin: { await origin.stop() },
    run: body)
}

/// A body of `count` bytes that are not all the same (nor the same in every
/// 64 KiB), made quickly: tests run in parallel on few threads.
private func pattern(_ count: Int) -> Data {
  let block = (0..<65_521).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
  var data = Data(capacity: count)
  while data.count < count { data.append(contentsOf: block.prefix(count - data.count)) }
  return data
}

/// The body bytes in `bytes` (what follows the head), or 0 without a whole head.
private func bodyCount(_ bytes: [UInt8]) -> Int {
  RawResponse(bytes)?.body.count ?? 0
}

/// A raw client held across suspension points (it is used by one thread at a time).
private final class HeldClient: @unchecked Sendable {
  let client: RawClient
  var received: [UInt8] = []

  init(port: Int, request: String) throws {
    client = try RawClient(port: port)
    client.send(request)
  }

  /// Reads until the head and at least one body byte have arrived, the
  /// connection closes, or `timeout` seconds pass (a failsafe: the origin
  /// sends no more until the test releases it, so bytes that came are bytes
  /// the proxy relayed before the origin sent the rest).
  func readFirstBodyBytes(within timeout: Double) {
    let deadline = Date().addingTimeInterval(timeout)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while bodyCount(received) == 0 && Date() < deadline {
      var poller = pollfd(fd: client.descriptor, events: Int16(POLLIN), revents: 0)
      let left = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
      guard poll(&poller, 1, left) > 0 else { break }
      let count = recv(client.descriptor, &buffer, buffer.count, 0)
      if count <= 0 { break }
      received.append(contentsOf: buffer[0..<count])
    }
  }

  /// Reads the rest, until the server closes the connection.
  func readRest() -> RawResponse? {
    received += client.readAll()
    return RawResponse(received)
  }
}

@Suite("carlos-caching-proxy relays a body being stored while it arrives")
struct CachingProxyRelayTests {
  static let total = 4 << 20
  static let headers = [("Cache-Control", "public, max-age=60")]

  @Test(
    "A cacheable body reaches the client while the origin sends it; it is stored whole, and collapsed waiters get it whole"
  )
  func relaysWhileStoring() async throws {
    let body = pattern(Self.total)
    let origin = try await GatedOrigin(body: body, firstPart: 256 << 10, headers: Self.headers)
    let lines = Mutex<[String]>([])
    try await withProxy(before: origin, log: { line in lines.withLock { $0.append(line) } }) {
      proxy in
      let port = proxy.port
      let request = "GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
      let leader = try await onThread {
        let held = try HeldClient(port: port, request: request)
        held.readFirstBodyBytes(within: 20)
        return held
      }
      // The origin has sent its first part only: it waits for `release()`.
      #expect(origin.firstPartsSent == 1)
      #expect(
        bodyCount(leader.received) > 0,
        "the first body bytes reach the client before the origin sends the rest")
      // Waiters for the same URL while the leader's response is in flight.
      let waiters = 3
      async let collapsed = withThrowingTaskGroup(of: RawResponse?.self) { group in
        for _ in 0..<waiters {
          group.addTask {
            try await onThread { try HeldClient(port: port, request: request).readRest() }
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      for _ in 0..<2_000 where proxy.counters.openConnections < 1 + waiters {
        try await Task.sleep(for: .milliseconds(10))
      }
      // Time for the waiters' requests to reach the cache (if they came after the
      // store, they are hits: whole bodies either way).
      try await Task.sleep(for: .milliseconds(200))
      origin.release()
      let whole = try await onThread { leader.readRest() }
      #expect(whole?.status == 200)
      #expect(whole?.header("Content-Length") == String(Self.total))
      #expect(whole?.body.count == Self.total)
      #expect(whole.map { Data($0.body) == body } == true, "the bytes themselves")
      for response in try await collapsed {
        #expect(response?.status == 200)
        #expect(response.map { Data($0.body) == body } == true, "a waiter's bytes")
      }
      let hit = try await onThread { try HeldClient(port: port, request: request).readRest() }
      #expect(hit.map { Data($0.body) == body } == true)
      #expect(origin.requests == 1, "stored: the next requests are answered from the cache")
      #expect(proxy.counters[.misses] == 1)
      #expect(proxy.counters[.collapsed] + proxy.counters[.hits] == waiters + 1)
      let logged = lines.withLock { $0 }
      #expect(
        logged.filter { $0.contains(" GET /big 200 \(Self.total) miss ") }.count == 1,
        "\(logged)")
    }
  }

  @Test(
    "When the origin dies mid-body, the client's connection closes short of Content-Length, and nothing is stored"
  )
  func originDiesMidBody() async throws {
    let body = pattern(Self.total)
    let origin = try await GatedOrigin(
      body: body, firstPart: 256 << 10, headers: Self.headers, ending: .die)
    try await withProxy(before: origin) { proxy in
      let port = proxy.port
      let request = "GET /dies HTTP/1.1\r\nHost: x\r\n\r\n"
      let leader = try await onThread {
        let held = try HeldClient(port: port, request: request)
        held.readFirstBodyBytes(within: 20)
        return held
      }
      #expect(bodyCount(leader.received) > 0, "relayed before the origin died")
      origin.release()
      // Keep-alive was asked for: only the proxy closing the connection ends this read.
      let cut = try await onThread { leader.readRest() }
      #expect(cut?.status == 200)
      #expect(cut?.header("Content-Length") == String(Self.total))
      #expect((cut?.body.count ?? Self.total) < Self.total, "no complete body is faked")
      // The proxy's own retry of the idempotent request (which dies too) is over
      // once the request is counted.
      for _ in 0..<2_000 where proxy.counters[.requests] < 1 {
        try await Task.sleep(for: .milliseconds(10))
      }
      let asked = origin.requests
      origin.setEnding(.finish)
      let next = try await onThread {
        try HeldClient(
          port: port, request: "GET /dies HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .readRest()
      }
      #expect(origin.requests == asked + 1, "nothing was stored: the next request is a miss")
      #expect(next.map { Data($0.body) == body } == true)
    }
  }

  @Test("A client that does not read holds up neither the store nor the other clients")
  func slowClient() async throws {
    let total = 16 << 20
    let body = pattern(total)
    let origin = try await GatedOrigin(body: body, firstPart: 1 << 20, headers: Self.headers)
    origin.release()
    try await withProxy(before: origin) { proxy in
      let port = proxy.port
      let request = "GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
      // Reads the head and first bytes, then nothing until the others are served.
      let stalled = try await onThread {
        let held = try HeldClient(port: port, request: request)
        held.readFirstBodyBytes(within: 20)
        return held
      }
      #expect(bodyCount(stalled.received) > 0)
      let other = try await onThread { try HeldClient(port: port, request: request).readRest() }
      #expect(other.map { Data($0.body) == body } == true, "served while the first client stalls")
      #expect(origin.requests == 1, "stored while the first client stalls")
      let rest = try await onThread { stalled.readRest() }
      #expect(rest.map { Data($0.body) == body } == true, "the stalled client gets every byte")
    }
  }

  @Test(
    "A cacheable body of unknown length that passes --max-object-size is relayed whole and not stored"
  )
  func pastTheLimit() async throws {
    let total = 3_000_000
    let body = pattern(total)
    let origin = try await GatedOrigin(
      body: body, firstPart: 100_000, headers: Self.headers, declaresLength: false)
    try await withProxy(before: origin, arguments: ["--max-object-size", "1000000"]) { proxy in
      let port = proxy.port
      let request = "GET /past HTTP/1.0\r\n\r\n"
      let leader = try await onThread {
        let held = try HeldClient(port: port, request: request)
        held.readFirstBodyBytes(within: 20)
        return held
      }
      #expect(bodyCount(leader.received) > 0)
      origin.release()
      let whole = try await onThread { leader.readRest() }
      #expect(whole?.status == 200)
      #expect(whole?.header("Cache-Control") == "public, max-age=60")
      #expect(whole.map { Data($0.body) == body } == true, "every byte, delimited by the close")
      let again = try await onThread { try HeldClient(port: port, request: request).readRest() }
      #expect(again.map { Data($0.body) == body } == true)
      #expect(origin.requests == 2, "not stored")
    }
  }
}
#endif
