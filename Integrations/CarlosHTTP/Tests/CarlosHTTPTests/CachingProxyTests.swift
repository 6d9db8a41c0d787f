#if HTTP
import AsyncHTTPClient
import CarlosCachingProxy
import Foundation
import NIOCore
import Synchronization
import Testing

/// The `carlos-caching-proxy` executable, built next to the test bundle.
private func proxyExecutable() throws -> URL {
  let tests = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
  let candidates = [
    tests.deletingLastPathComponent().appendingPathComponent("carlos-caching-proxy"),
    tests.deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("carlos-caching-proxy"),
  ]
  guard
    let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
  else { throw ProxyTestError.executableMissing(candidates.map(\.path)) }
  return found
}

private enum ProxyTestError: Error {
  case executableMissing([String])
  case noListeningLine(String)
}

/// A running `carlos-caching-proxy` child process.
private final class ProxyProcess: Sendable {
  let process: Process
  let port: Int

  /// Starts the proxy in front of `upstream` on any free port and reads its first line.
  init(upstream: URL, extra: [String] = []) throws {
    let process = Process()
    process.executableURL = try proxyExecutable()
    process.arguments = ["--upstream", upstream.absoluteString, "--port", "0"] + extra
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    var line = Data()
    while true {
      let byte = output.fileHandleForReading.readData(ofLength: 1)
      if byte.isEmpty || byte == Data("\n".utf8) { break }
      line.append(byte)
    }
    let text = String(decoding: line, as: UTF8.self)
    guard text.hasPrefix("listening "), let port = Int(text.dropFirst("listening ".count)) else {
      process.terminate()
      throw ProxyTestError.noListeningLine(text)
    }
    self.process = process
    self.port = port
  }

  /// `http://127.0.0.1:PORT` followed by `path`.
  func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

  /// Sends SIGTERM and waits for the process to end; returns whether it
  /// drained and exited with 0.
  func stop() -> Bool {
    process.terminate()
    process.waitUntilExit()
    return process.terminationReason == .exit && process.terminationStatus == 0
  }
}

/// Sends one request through `client` and returns its status, header fields and body.
private func send(
  _ client: HTTPClient, _ url: String, method: String = "GET", headers: [(String, String)] = []
) async throws -> (status: Int, headers: [(String, String)], body: String) {
  var request = HTTPClientRequest(url: url)
  request.method = .init(rawValue: method)
  for (name, value) in headers { request.headers.add(name: name, value: value) }
  let response = try await client.execute(request, timeout: .seconds(10))
  let body = try await response.body.collect(upTo: 1 << 20)
  return (
    Int(response.status.code), response.headers.map { ($0.name, $0.value) },
    String(buffer: body)
  )
}

@Suite("carlos-caching-proxy")
struct CachingProxyTests {
  @Test(
    "As a child process: prints its port, serves hits, tells variants apart, invalidates, drains and exits on SIGTERM"
  )
  func childProcess() async throws {
    let count = Mutex(0)
    try await withServer { request in
      let index = count.withLock { value in
        defer { value += 1 }
        return value
      }
      if request.method != "GET" { return ok("done \(index)", []) }
      return ok(
        "\(request.uri) \(request.header("Accept-Language") ?? "-") #\(index)",
        [
          ("Cache-Control", "max-age=600"), ("Vary", "Accept-Language"), ("Connection", "X-Hop"),
          ("X-Hop", "1"),
        ])
    } run: { server, client async throws in
      let proxy = try ProxyProcess(upstream: server.url(""))
      let english = [("Accept-Language", "en")]
      let first = try await send(client, proxy.url("/page?x=1"), headers: english)
      #expect(first.body == "/page?x=1 en #0")
      let hit = try await send(client, proxy.url("/page?x=1"), headers: english)
      #expect(hit.body == "/page?x=1 en #0")
      #expect(hit.headers.contains { $0.0.lowercased() == "age" })
      #expect(!hit.headers.contains { $0.0.lowercased() == "x-hop" })
      let german = try await send(
        client, proxy.url("/page?x=1"), headers: [("Accept-Language", "de")])
      #expect(german.body == "/page?x=1 de #1")
      #expect(server.requests.count == 2)
      let post = try await send(client, proxy.url("/page?x=1"), method: "POST")
      #expect(post.body == "done 2")
      let afterPost = try await send(client, proxy.url("/page?x=1"), headers: english)
      #expect(afterPost.body == "/page?x=1 en #3")
      #expect(proxy.stop())
    }
  }

  @Test("Its options: upstream and port required, storage memory or disk:PATH, capacity in bytes")
  func options() throws {
    let options = try CachingProxyOptions(arguments: [
      "--upstream", "http://127.0.0.1:8000", "--port", "0", "--storage", "disk:/tmp/x",
      "--capacity", "1000",
    ])
    #expect(options.upstream.absoluteString == "http://127.0.0.1:8000")
    #expect(options.port == 0)
    #expect(options.storage == .disk("/tmp/x"))
    #expect(options.capacity == 1000)
    #expect(throws: CachingProxyError.self) {
      try CachingProxyOptions(arguments: ["--port", "1"])
    }
    #expect(throws: CachingProxyError.self) {
      try CachingProxyOptions(arguments: ["--upstream", "ftp://x", "--port", "1"])
    }
    #expect(throws: CachingProxyError.self) {
      try CachingProxyOptions(arguments: [
        "--upstream", "http://x", "--port", "1", "--storage", "tape",
      ])
    }
  }
}
#endif
