#if HTTP
import Carlos
import CarlosHTTP
import Foundation
import Testing

@Suite("HTTPCache: what is stored and served")
struct HTTPCacheServedResponseTests {
  @Test("Hop-by-hop fields and fields named by Connection are neither stored nor served")
  func hopByHop() async throws {
    try await withCache { _, _, now in
      dated(
        "x", now,
        [
          ("Cache-Control", "max-age=60"), ("Connection", "X-Secret"), ("X-Secret", "s"),
          ("Keep-Alive", "timeout=5"), ("Proxy-Authenticate", "Basic"), ("Upgrade", "h2c"),
          ("X-Kept", "k"),
        ])
    } run: { server, cache, memory, _ async throws in
      let key = HTTPRequestKey(server.url("/h"))
      _ = try await cache.response(for: key)
      let stored = try await memory.entry(forKey: key.cacheKey).value.variants[0].response
      let served = try await cache.response(for: key)
      for response in [stored, served] {
        for name in ["Connection", "X-Secret", "Keep-Alive", "Proxy-Authenticate", "Upgrade"] {
          #expect(response.headers[name] == nil, "\(name)")
        }
        #expect(response.headers["X-Kept"] == "k")
      }
    }
  }

  @Test(
    "Age: the first member of the first field counts, junk is ignored, and every stored answer has one"
  )
  func age() async throws {
    let cases: [(age: String, freshAfter10s: Bool)] = [
      ("7200, 0", false), ("0, 7200", true), ("junk", true), ("1.5", true), ("-5", true),
      ("2147483648", false), ("50", false), ("5", true),
    ]
    for (ageValue, fresh) in cases {
      try await withCache { _, index, now in
        dated("#\(index)", now, [("Cache-Control", "max-age=60"), ("Age", ageValue)])
      } run: { server, cache, _, clock async throws in
        let key = HTTPRequestKey(server.url("/age"))
        _ = try await cache.response(for: key)
        clock.advance(by: .seconds(10))
        let second = try await cache.response(for: key)
        #expect((text(second) == "#0") == fresh, "Age: \(ageValue)")
        if fresh { #expect(second.headers.values(for: "Age").count == 1) }
      }
    }
  }

  @Test("A stored response carries Age, its Date unchanged")
  func ageOnEveryHit() async throws {
    try await withCache { _, _, now in
      dated("x", now, [("Cache-Control", "max-age=600")])
    } run: { server, cache, _, clock async throws in
      let key = HTTPRequestKey(server.url("/a"))
      let first = try await cache.response(for: key)
      clock.advance(by: .seconds(42))
      let hit = try await cache.response(for: key)
      #expect(hit.headers["Age"] == "42")
      #expect(hit.headers["Date"] == first.headers["Date"])
    }
  }

  @Test(
    "A client's If-None-Match or If-Modified-Since that a fresh stored response satisfies gets a 304 from the cache"
  )
  func conditionalFromCache() async throws {
    let modified = "Sat, 01 Mar 2025 10:00:00 GMT"
    try await withCache { _, _, now in
      dated(
        "x", now,
        [("Cache-Control", "max-age=600"), ("ETag", "\"e1\""), ("Last-Modified", modified)])
    } run: { server, cache, _, _ async throws in
      let url = server.url("/c")
      _ = try await cache.response(for: HTTPRequestKey(url))
      let matching = try await cache.response(
        for: HTTPRequestKey(url, headers: ["If-None-Match": "\"zz\", W/\"e1\""]))
      #expect(matching.status == 304)
      #expect(matching.body.isEmpty)
      #expect(matching.headers["ETag"] == "\"e1\"")
      let other = try await cache.response(
        for: HTTPRequestKey(url, headers: ["If-None-Match": "\"zz\""]))
      #expect(other.status == 200)
      let since = try await cache.response(
        for: HTTPRequestKey(url, headers: ["If-Modified-Since": modified]))
      #expect(since.status == 304)
      let before = try await cache.response(
        for: HTTPRequestKey(url, headers: ["If-Modified-Since": "Fri, 28 Feb 2025 10:00:00 GMT"]))
      #expect(before.status == 200)
      #expect(server.requests.count == 1)
    }
  }

  @Test(
    "Revalidating, the cache sends its own validators, not the client's, and answers the client's itself"
  )
  func ownValidators() async throws {
    try await withCache { request, _, now in
      if request.header("If-None-Match") == "\"s\"" {
        return .respond(status: 304, headers: [("Date", HTTPDate.format(now))], body: Data())
      }
      return dated("stored", now, [("Cache-Control", "max-age=10"), ("ETag", "\"s\"")])
    } run: { server, cache, _, clock async throws in
      let url = server.url("/own")
      _ = try await cache.response(for: HTTPRequestKey(url))
      clock.advance(by: .seconds(20))
      let client = try await cache.response(
        for: HTTPRequestKey(url, headers: ["If-None-Match": "\"client\""]))
      #expect(client.status == 200)
      #expect(text(client) == "stored")
      #expect(server.requests.last?.header("If-None-Match") == "\"s\"")
    }
  }

  @Test("Pragma: no-cache in a request without Cache-Control makes the cache revalidate")
  func pragma() async throws {
    try await withCache { _, index, now in
      dated("#\(index)", now, [("Cache-Control", "max-age=600")])
    } run: { server, cache, _, _ async throws in
      let url = server.url("/p")
      _ = try await cache.response(for: HTTPRequestKey(url))
      #expect(
        text(try await cache.response(for: HTTPRequestKey(url, headers: ["Pragma": "no-cache"])))
          == "#1")
      let overridden = HTTPRequestKey(
        url, headers: ["Pragma": "no-cache", "Cache-Control": "max-stale"])
      #expect(text(try await cache.response(for: overridden)) == "#1")
    }
  }

  @Test("A HEAD request is answered from a fresh stored GET response, without its body")
  func headFromGet() async throws {
    try await withCache { _, _, now in
      dated("body", now, [("Cache-Control", "max-age=600")])
    } run: { server, cache, _, _ async throws in
      let url = server.url("/head")
      _ = try await cache.response(for: HTTPRequestKey(url))
      let head = try await cache.response(for: HTTPRequestKey(url, method: "HEAD"))
      #expect(head.status == 200)
      #expect(head.body.isEmpty)
      #expect(server.requests.count == 1)
    }
  }

  @Test(
    "A 200 to a HEAD with the same validators updates the stored GET response's fields and freshness"
  )
  func headFreshensGet() async throws {
    try await withCache { request, index, now in
      request.method == "HEAD"
        ? .respond(
          status: 200,
          headers: [
            ("Date", HTTPDate.format(now)), ("Cache-Control", "max-age=600"), ("ETag", "\"g\""),
            ("X-Version", "2"), ("Content-Length", "7"),
          ], body: Data())
        : dated(
          "body #\(index)", now,
          [("Cache-Control", "max-age=10"), ("ETag", "\"g\""), ("X-Version", "1")])
    } run: { server, cache, _, clock async throws in
      let url = server.url("/hf")
      _ = try await cache.response(for: HTTPRequestKey(url))
      clock.advance(by: .seconds(20))
      let head = try await cache.response(for: HTTPRequestKey(url, method: "HEAD"))
      #expect(head.headers["X-Version"] == "2")
      #expect(head.body.isEmpty)
      let get = try await cache.response(for: HTTPRequestKey(url))
      #expect(text(get) == "body #0")
      #expect(get.headers["X-Version"] == "2")
      #expect(server.requests.count == 2)
    }
  }

  @Test(
    "only-if-cached gets a stored response that may be used, or else a 504 without asking the origin"
  )
  func onlyIfCached() async throws {
    try await withCache { _, index, now in
      dated("#\(index)", now, [("Cache-Control", "max-age=10"), ("ETag", "\"o\"")])
    } run: { server, cache, _, clock async throws in
      let url = server.url("/oic")
      let onlyCached = HTTPRequestKey(url, headers: ["Cache-Control": "only-if-cached"])
      #expect(try await cache.response(for: onlyCached).status == 504)
      _ = try await cache.response(for: HTTPRequestKey(url))
      #expect(text(try await cache.response(for: onlyCached)) == "#0")
      clock.advance(by: .seconds(20))
      #expect(try await cache.response(for: onlyCached).status == 504)
      #expect(server.requests.count == 1)
    }
  }
}
#endif
