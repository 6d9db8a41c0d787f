#if HTTP
import Carlos
import CarlosHTTP
import Foundation
import Testing

@Suite("HTTPCache: invalidation by unsafe methods")
struct HTTPCacheInvalidationTests {
  /// GETs are fresh for a minute and vary on `Accept-Language`; other methods
  /// answer with the status and `Location`/`Content-Location` the path asks for.
  private static func origin(
    _ request: TestServer.Request, _ index: Int, _ now: Date
  ) -> TestServer.Reply {
    if request.method == "GET" {
      return dated(
        "\(request.uri) #\(index)", now,
        [("Cache-Control", "max-age=60"), ("Vary", "Accept-Language")])
    }
    if request.uri.hasPrefix("/fail") {
      return .respond(status: 500, headers: [], body: Data())
    }
    return .respond(
      status: 200,
      headers: [("Location", "/moved"), ("Content-Location", "http://other.example/cl")],
      body: Data("\(request.method) \(request.uri) \(request.header("Content-Length") ?? "-")".utf8)
    )
  }

  @Test(
    "A non-error answer to POST, PUT, DELETE or an unknown method removes every variant of the URI")
  func invalidates() async throws {
    for method in ["POST", "PUT", "DELETE", "M-SEARCH"] {
      try await withCache(Self.origin) { server, cache, _, _ async throws in
        let url = server.url("/doc")
        let english = HTTPRequestKey(url, headers: ["Accept-Language": "en"])
        let german = HTTPRequestKey(url, headers: ["Accept-Language": "de"])
        _ = try await cache.response(for: english)
        _ = try await cache.response(for: german)
        _ = try await cache.response(for: HTTPRequestKey(url, method: method))
        #expect(text(try await cache.response(for: english)) == "/doc #3")
        #expect(text(try await cache.response(for: german)) == "/doc #4")
      }
    }
  }

  @Test("An error answer to an unsafe method leaves the stored responses")
  func errorsDoNotInvalidate() async throws {
    try await withCache(Self.origin) { server, cache, _, _ async throws in
      let key = HTTPRequestKey(server.url("/fail"))
      _ = try await cache.response(for: key)
      #expect(try await cache.response(for: HTTPRequestKey(key.url, method: "POST")).status == 500)
      #expect(text(try await cache.response(for: key)) == "/fail #0")
    }
  }

  @Test("Same-origin Location is invalidated; a Content-Location on another origin is not followed")
  func relatedURIs() async throws {
    try await withCache(Self.origin) { server, cache, _, _ async throws in
      let moved = HTTPRequestKey(server.url("/moved"))
      _ = try await cache.response(for: moved)
      _ = try await cache.response(for: HTTPRequestKey(server.url("/doc"), method: "PUT"))
      #expect(text(try await cache.response(for: moved)) == "/moved #2")
    }
  }

  @Test("A request with a body passes through with its body, whatever the method")
  func bodies() async throws {
    try await withCache(Self.origin) { server, cache, _, _ async throws in
      let post = HTTPRequestKey(server.url("/form"), method: "PATCH", body: Data("a=1".utf8))
      #expect(text(try await cache.response(for: post)) == "PATCH /form 3")
      let get = HTTPRequestKey(server.url("/g"), body: Data("xy".utf8))
      _ = try await cache.response(for: get)
      _ = try await cache.response(for: get)
      #expect(server.requests.count == 3)
    }
  }

  @Test(
    "A POST answer with explicit freshness and the target URI as Content-Location answers later GETs"
  )
  func postResponseStored() async throws {
    try await withCache { request, index, now in
      request.method == "POST"
        ? .respond(
          status: 200,
          headers: [
            ("Date", HTTPDate.format(now)), ("Cache-Control", "max-age=60"),
            ("Content-Location", request.uri),
          ], body: Data("posted #\(index)".utf8))
        : dated("got #\(index)", now, [("Cache-Control", "max-age=60")])
    } run: { server, cache, _, _ async throws in
      let url = server.url("/p")
      #expect(text(try await cache.response(for: HTTPRequestKey(url))) == "got #0")
      _ = try await cache.response(for: HTTPRequestKey(url, method: "POST", body: Data("x".utf8)))
      #expect(text(try await cache.response(for: HTTPRequestKey(url))) == "posted #1")
      #expect(server.requests.count == 2)
    }
  }
}
#endif
