#if HTTP
import AsyncHTTPClient
import Carlos
import CarlosHTTP
import Foundation
import Testing

@Suite("HTTPFetcher")
struct HTTPFetcherTests {
  @Test("A get sends the key's method and headers and answers with status, headers and body")
  func fetchesResponse() async throws {
    try await withServer { request in
      .respond(
        status: 200, headers: [("X-Echo", request.header("x-token") ?? "none")],
        body: Data("\(request.method) \(request.uri)".utf8))
    } run: { server, client in
      let http = HTTPFetcher(client: client)
      let key = HTTPRequestKey(server.url("/a?b=1"), method: "put", headers: ["X-Token": "t1"])
      let response = try await http.get(key)
      #expect(response.status == 200)
      #expect(response.headers["x-echo"] == "t1")
      #expect(String(decoding: response.body, as: UTF8.self) == "PUT /a?b=1")
    }
  }

  @Test("Every final status is a value; bodies() fails outside 2xx with the status")
  func statuses() async throws {
    try await withServer { request in
      request.uri == "/missing"
        ? .respond(status: 404, headers: [], body: Data("no".utf8)) : ok("yes")
    } run: { server, client in
      let http = HTTPFetcher(client: client)
      let missing = try await http.get(HTTPRequestKey(server.url("/missing")))
      #expect(missing.status == 404)
      let bodies = http.bodies()
      let data: Data = try await bodies.get(server.url("/here"))
      #expect(data == Data("yes".utf8))
      await #expect(throws: HTTPFetcherError.statusCode(404)) {
        let _: Data = try await bodies.get(server.url("/missing"))
      }
    }
  }

  @Test("A server that stays silent fails with timedOut, and the connection is closed")
  func idleTimeout() async throws {
    try await withServer { _ in
      .hang
    } run: { server, client in
      let http = HTTPFetcher(client: client, timeout: .milliseconds(300))
      let started = ContinuousClock.now
      await #expect(throws: HTTPFetcherError.timedOut(.milliseconds(300))) {
        _ = try await http.response(for: HTTPRequestKey(server.url("/slow")))
      }
      #expect(ContinuousClock.now - started < .seconds(10), "the 300 ms timeout, not a hang")
      #expect(await server.wait(upTo: .seconds(30)) { server.closes.count == 1 })
    }
  }

  @Test("A request longer than the deadline fails with deadlineExceeded")
  func deadline() async throws {
    try await withServer { _ in
      .hang
    } run: { server, client in
      let http = HTTPFetcher(client: client, timeout: .seconds(10), deadline: .milliseconds(300))
      await #expect(throws: HTTPFetcherError.deadlineExceeded(.milliseconds(300))) {
        _ = try await http.response(for: HTTPRequestKey(server.url("/slow")))
      }
      #expect(await server.wait(upTo: .seconds(30)) { server.closes.count == 1 })
    }
  }

  @Test("A body over the limit fails as soon as it passes it, without Content-Length too")
  func sizeLimit() async throws {
    try await withServer { request in
      switch request.uri {
      case "/declared": return .stream(chunk: 65_536, total: 4 << 20, contentLength: 4 << 20)
      case "/endless": return .stream(chunk: 65_536, total: nil, contentLength: nil)
      default: return .stream(chunk: 1_000, total: 100_000, contentLength: nil)
      }
    } run: { server, client in
      let http = HTTPFetcher(client: client, maximumResponseSize: 1 << 20)
      for path in ["/declared", "/endless"] {
        let before = server.closes.count
        await #expect(throws: HTTPFetcherError.responseTooLarge(limit: 1 << 20)) {
          _ = try await http.response(for: HTTPRequestKey(server.url(path)))
        }
        #expect(await server.wait(upTo: .seconds(30)) { server.closes.count == before + 1 })
      }
      let small = try await http.response(for: HTTPRequestKey(server.url("/small")))
      #expect(small.body.count == 100_000)
    }
  }

  @Test("Redirects are followed to http only; another scheme or too many fail")
  func redirects() async throws {
    try await withServer { request in
      switch request.uri {
      case "/from": return .respond(status: 302, headers: [("Location", "/to")], body: Data())
      case "/to": return ok("arrived")
      case "/ftp":
        return .respond(status: 301, headers: [("Location", "ftp://example.com/x")], body: Data())
      case "/loop": return .respond(status: 307, headers: [("Location", "/loop")], body: Data())
      default:
        // /hop/N sends to /hop/N+1: no cycle, only a long chain.
        let next = (Int(request.uri.split(separator: "/").last ?? "0") ?? 0) + 1
        return .respond(status: 307, headers: [("Location", "/hop/\(next)")], body: Data())
      }
    } run: { server, client in
      let http = HTTPFetcher(client: client, maximumRedirects: 3)
      let arrived = try await http.response(for: HTTPRequestKey(server.url("/from")))
      #expect(String(decoding: arrived.body, as: UTF8.self) == "arrived")
      await #expect(throws: HTTPFetcherError.unsupportedRedirect("ftp://example.com/x")) {
        _ = try await http.response(for: HTTPRequestKey(server.url("/ftp")))
      }
      for path in ["/loop", "/hop/0"] {
        await #expect(throws: HTTPFetcherError.tooManyRedirects) {
          _ = try await http.response(for: HTTPRequestKey(server.url(path)))
        }
      }
    }
  }

  @Test("The fetcher's own redirect rules apply when the client does not follow redirects")
  func redirectsWithoutClientFollowing() async throws {
    let server = try await TestServer { request in
      switch request.uri {
      case "/from": return .respond(status: 303, headers: [("Location", "/to")], body: Data())
      case "/to": return ok(request.method)
      default:
        let next = (Int(request.uri.split(separator: "/").last ?? "0") ?? 0) + 1
        return .respond(status: 307, headers: [("Location", "/hop/\(next)")], body: Data())
      }
    }
    defer { Task { await server.stop() } }
    var configuration = HTTPClient.Configuration()
    configuration.redirectConfiguration = .disallow
    try await withClient(configuration) { client in
      let http = HTTPFetcher(client: client)
      let response = try await http.response(
        for: HTTPRequestKey(server.url("/from"), method: "POST"))
      #expect(String(decoding: response.body, as: UTF8.self) == "GET")
      let limited = HTTPFetcher(client: client, maximumRedirects: 2)
      await #expect(throws: HTTPFetcherError.tooManyRedirects) {
        _ = try await limited.response(for: HTTPRequestKey(server.url("/hop/0")))
      }
      #expect(server.requests.filter { $0.uri.hasPrefix("/hop/") }.count == 3)
    }
    await server.stop()
  }

  @Test("Cancelling the future or the task closes the request on the server within 1 s")
  func cancellation() async throws {
    try await withServer { _ in
      .hang
    } run: { server, client in
      let http = HTTPFetcher(client: client)
      let future: Future<HTTPResponse> = http.get(HTTPRequestKey(server.url("/wait")))
      #expect(await server.wait(upTo: .seconds(30)) { server.requests.count == 1 })
      future.cancel()
      #expect(await server.wait(upTo: .seconds(30)) { server.closes.count == 1 })
      await #expect(throws: CancellationError.self) { _ = try await future.value }

      let task = Task { try await http.response(for: HTTPRequestKey(server.url("/wait"))) }
      #expect(await server.wait(upTo: .seconds(30)) { server.requests.count == 2 })
      task.cancel()
      #expect(await server.wait(upTo: .seconds(30)) { server.closes.count == 2 })
      await #expect(throws: CancellationError.self) { _ = try await task.value }
    }
  }

  @Test("A URL that is not http(s) and a closed port fail with specific errors")
  func badTargets() async throws {
    // AsyncHTTPClient retries a refused connection until its connect timeout.
    try await withClient(.init(timeout: .init(connect: .seconds(1)))) { client in
      let http = HTTPFetcher(client: client)
      let file = URL(fileURLWithPath: "/etc/passwd")
      await #expect(throws: HTTPFetcherError.unsupportedURL(file)) {
        _ = try await http.response(for: HTTPRequestKey(file))
      }
      // A port that was just free: bind a server, stop it, then connect.
      let server = try await TestServer { _ in ok() }
      let url = server.url("/")
      await server.stop()
      do {
        _ = try await http.response(for: HTTPRequestKey(url))
        Issue.record("a closed port answered")
      } catch let error as HTTPFetcherError {
        guard case .connectionFailed = error else {
          Issue.record("expected connectionFailed, got \(error)")
          return
        }
      }
    }
  }
}
#endif
