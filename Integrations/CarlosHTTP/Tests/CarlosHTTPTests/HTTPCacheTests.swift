#if HTTP
import AsyncHTTPClient
import Carlos
import CarlosHTTP
import Foundation
import Synchronization
import Testing

@Suite("HTTPCache")
struct HTTPCacheTests {
  @Test("max-age: served from storage until it passes, stored with that expiry")
  func maxAge() async throws {
    try await withCache { _, index, now in
      dated("v\(index)", now, [("Cache-Control", "max-age=60")])
    } run: {
      server, cache, memory, clock in
      let key = HTTPRequestKey(server.url("/a"))
      let start = clock.now()
      #expect(text(try await cache.get(key)) == "v0")
      clock.advance(by: .seconds(30))
      let second: HTTPResponse = try await cache.get(key)
      #expect(text(second) == "v0")
      #expect(second.headers["Age"] == "30")
      #expect(server.requests.count == 1)
      let entry = try await memory.entry(forKey: key.cacheKey)
      #expect(entry.expiresAt == start.addingTimeInterval(60))
      clock.advance(by: .seconds(31))
      #expect(text(try await cache.get(key)) == "v1")
      #expect(server.requests.count == 2)
    }
  }

  @Test("s-maxage counts for a shared cache only")
  func sharedMaxAge() async throws {
    for policy in [HTTPCachePolicy.shared, .private] {
      try await withCache(policy: policy) { _, index, now in
        dated("v\(index)", now, [("Cache-Control", "max-age=10, s-maxage=120")])
      } run: { server, cache, _, clock in
        let key = HTTPRequestKey(server.url("/s"))
        _ = try await cache.response(for: key)
        clock.advance(by: .seconds(60))
        let later = try await cache.response(for: key)
        #expect(text(later) == (policy.isShared ? "v0" : "v1"))
      }
    }
  }

  @Test("Expires counts from Date")
  func expires() async throws {
    try await withCache { _, index, now in
      dated("v\(index)", now, [("Expires", HTTPDate.format(now.addingTimeInterval(30)))])
    } run: { server, cache, memory, clock in
      let key = HTTPRequestKey(server.url("/e"))
      let start = clock.now()
      _ = try await cache.response(for: key)
      #expect(
        try await memory.entry(forKey: key.cacheKey).expiresAt == start.addingTimeInterval(30))
      clock.advance(by: .seconds(29))
      #expect(text(try await cache.response(for: key)) == "v0")
      clock.advance(by: .seconds(2))
      #expect(text(try await cache.response(for: key)) == "v1")
    }
  }

  @Test("no-store is never stored, and removes what was stored")
  func noStore() async throws {
    try await withCache { _, index, now in
      dated("v\(index)", now, [("Cache-Control", index == 0 ? "max-age=5" : "no-store")])
    } run: { server, cache, memory, clock in
      let key = HTTPRequestKey(server.url("/n"))
      _ = try await cache.response(for: key)
      clock.advance(by: .seconds(6))
      #expect(text(try await cache.response(for: key)) == "v1")
      #expect(text(try await cache.response(for: key)) == "v2")
      await #expect(throws: (any Error).self) { _ = try await memory.entry(forKey: key.cacheKey) }
    }
  }

  @Test("private is stored by a private cache only")
  func privateResponses() async throws {
    for policy in [HTTPCachePolicy.shared, .private] {
      try await withCache(policy: policy) { _, index, now in
        dated("v\(index)", now, [("Cache-Control", "private, max-age=60")])
      } run: { server, cache, _, _ async throws in
        let key = HTTPRequestKey(server.url("/p"))
        _ = try await cache.response(for: key)
        let second = try await cache.response(for: key)
        #expect(text(second) == (policy.isShared ? "v1" : "v0"))
      }
    }
  }

  @Test("no-cache and max-age=0 are stored but revalidated on every use")
  func noCache() async throws {
    for control in ["no-cache", "max-age=0"] {
      try await withCache { request, index, now in
        if request.header("If-None-Match") == "\"t\"" {
          return .respond(status: 304, headers: [("Date", HTTPDate.format(now))], body: Data())
        }
        return dated("v\(index)", now, [("Cache-Control", control), ("ETag", "\"t\"")])
      } run: { server, cache, memory, _ in
        let key = HTTPRequestKey(server.url("/c"))
        _ = try await cache.response(for: key)
        _ = try await memory.entry(forKey: key.cacheKey)
        #expect(text(try await cache.response(for: key)) == "v0")
        #expect(text(try await cache.response(for: key)) == "v0")
        #expect(server.requests.count == 3)
        #expect(server.requests.dropFirst().allSatisfy { $0.header("If-None-Match") == "\"t\"" })
      }
    }
  }

  @Test("A stale response with an ETag is revalidated; a 304 refreshes it without a body")
  func entityTagRevalidation() async throws {
    try await withCache { request, _, now in
      if request.header("If-None-Match") == "\"v1\"" {
        return .respond(
          status: 304,
          headers: [
            ("Date", HTTPDate.format(now)), ("Cache-Control", "max-age=100"), ("X-New", "1"),
          ],
          body: Data())
      }
      return dated("body", now, [("Cache-Control", "max-age=10"), ("ETag", "\"v1\"")])
    } run: { server, cache, memory, clock in
      let key = HTTPRequestKey(server.url("/t"))
      _ = try await cache.response(for: key)
      clock.advance(by: .seconds(11))
      let revalidatedAt = clock.now()
      let refreshed = try await cache.response(for: key)
      #expect(refreshed.status == 200)
      #expect(text(refreshed) == "body")
      #expect(refreshed.headers["X-New"] == "1")
      #expect(refreshed.headers["Cache-Control"] == "max-age=100")
      #expect(server.requests.count == 2)
      let entry = try await memory.entry(forKey: key.cacheKey)
      #expect(entry.value.variants[0].freshUntil == revalidatedAt.addingTimeInterval(100))
      #expect(entry.expiresAt == revalidatedAt.addingTimeInterval(100 + 86_400))
      clock.advance(by: .seconds(90))
      #expect(text(try await cache.response(for: key)) == "body")
      #expect(server.requests.count == 2)
    }
  }

  @Test("A stale response with Last-Modified is revalidated with If-Modified-Since")
  func lastModifiedRevalidation() async throws {
    let modified = "Sat, 01 Mar 2025 10:00:00 GMT"
    try await withCache { request, _, now in
      if request.header("If-Modified-Since") == modified {
        return .respond(status: 304, headers: [("Date", HTTPDate.format(now))], body: Data())
      }
      return dated("page", now, [("Cache-Control", "max-age=1"), ("Last-Modified", modified)])
    } run: { server, cache, _, clock in
      let key = HTTPRequestKey(server.url("/m"))
      _ = try await cache.response(for: key)
      clock.advance(by: .seconds(5))
      #expect(text(try await cache.response(for: key)) == "page")
      #expect(server.requests.last?.header("If-Modified-Since") == modified)
      #expect(server.requests.count == 2)
    }
  }

  @Test("A 200 to a revalidation replaces the stored response")
  func replacedOnRevalidation() async throws {
    try await withCache { _, index, now in
      dated("v\(index)", now, [("Cache-Control", "max-age=10"), ("ETag", "\"\(index)\"")])
    } run: { server, cache, memory, clock in
      let key = HTTPRequestKey(server.url("/r"))
      _ = try await cache.response(for: key)
      clock.advance(by: .seconds(11))
      #expect(text(try await cache.response(for: key)) == "v1")
      #expect(server.requests.last?.header("If-None-Match") == "\"0\"")
      #expect(text(try await memory.entry(forKey: key.cacheKey).value.variants[0].response) == "v1")
      #expect(text(try await cache.response(for: key)) == "v1")
      #expect(server.requests.count == 2)
    }
  }

  @Test("A server error on revalidation is passed on and the stored response kept")
  func serverErrorOnRevalidation() async throws {
    try await withCache { request, index, now in
      switch index {
      case 0: return dated("stored", now, [("Cache-Control", "max-age=10"), ("ETag", "\"s\"")])
      case 1: return .respond(status: 503, headers: [], body: Data("down".utf8))
      default:
        return request.header("If-None-Match") == "\"s\""
          ? .respond(status: 304, headers: [("Date", HTTPDate.format(now))], body: Data())
          : dated("unexpected", now, [])
      }
    } run: { server, cache, memory, clock in
      let key = HTTPRequestKey(server.url("/x"))
      _ = try await cache.response(for: key)
      clock.advance(by: .seconds(11))
      let failed = try await cache.response(for: key)
      #expect(failed.status == 503)
      #expect(
        text(try await memory.entry(forKey: key.cacheKey).value.variants[0].response) == "stored")
      #expect(text(try await cache.response(for: key)) == "stored")
      #expect(server.requests.count == 3)
    }
  }

  @Test("A status without explicit freshness that is not heuristically cacheable is not stored")
  func statuses() async throws {
    try await withCache { request, index, now in
      let status = request.uri == "/500" ? 500 : 404
      return .respond(
        status: status,
        headers: [("Date", HTTPDate.format(now))]
          + (status == 404 ? [("Cache-Control", "max-age=60")] : []),
        body: Data("\(status) #\(index)".utf8))
    } run: { server, cache, _, _ async throws in
      for _ in 0..<2 {
        #expect(try await cache.response(for: HTTPRequestKey(server.url("/500"))).status == 500)
      }
      #expect(server.requests.count == 2)
      for _ in 0..<2 {
        #expect(try await cache.response(for: HTTPRequestKey(server.url("/404"))).status == 404)
      }
      #expect(server.requests.count == 3)
      await #expect(throws: HTTPFetcherError.statusCode(500)) {
        let _: Data = try await cache.bodies().get(server.url("/500"))
      }
    }
  }

  @Test("A successful POST removes the stored GET of the same URL")
  func unsafeMethodInvalidates() async throws {
    try await withCache { request, index, now in
      dated("\(request.method) \(index)", now, [("Cache-Control", "max-age=60")])
    } run: { server, cache, _, _ async throws in
      let key = HTTPRequestKey(server.url("/i"))
      #expect(text(try await cache.response(for: key)) == "GET 0")
      #expect(text(try await cache.response(for: key)) == "GET 0")
      #expect(
        text(try await cache.response(for: HTTPRequestKey(server.url("/i"), method: "POST")))
          == "POST 1")
      #expect(text(try await cache.response(for: key)) == "GET 2")
    }
  }

  @Test("A request's own no-cache revalidates and no-store keeps the answer out")
  func requestDirectives() async throws {
    try await withCache { _, index, now in
      dated("v\(index)", now, [("Cache-Control", "max-age=60")])
    } run: {
      server, cache, memory, _ in
      let key = HTTPRequestKey(server.url("/q"))
      _ = try await cache.response(for: key)
      let noCache = HTTPRequestKey(server.url("/q"), headers: ["Cache-Control": "no-cache"])
      #expect(text(try await cache.response(for: noCache)) == "v1")
      let noStore = HTTPRequestKey(server.url("/q2"), headers: ["Cache-Control": "no-store"])
      _ = try await cache.response(for: noStore)
      await #expect(throws: (any Error).self) {
        _ = try await memory.entry(forKey: noStore.cacheKey)
      }
    }
  }

  @Test("Every level of a composed storage receives the record's expiry")
  func composedStorage() async throws {
    let clock = ManualClock(start: Date(timeIntervalSince1970: 1_750_000_000))
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("carlos-http-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try await withServer { _ in
      dated("x", clock.now(), [("Cache-Control", "max-age=60"), ("ETag", "\"e\"")])
    } run: { server, client in
      let memory = MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry>(clock: clock)
      let disk = DiskCacheLevel<HTTPCacheKey, HTTPCacheEntry>(path: folder, clock: clock)
      let cache = (memory >>> disk).caching(HTTPFetcher(client: client), clock: clock)
      let key = HTTPRequestKey(server.url("/d"))
      _ = try await cache.response(for: key)
      let keep = clock.now().addingTimeInterval(60 + 86_400)
      #expect(try await memory.entry(forKey: key.cacheKey).expiresAt == keep)
      #expect(try await disk.entry(forKey: key.cacheKey).expiresAt == keep)
      // Copied up from disk, the record is still judged by its own freshness.
      memory.clear()
      clock.advance(by: .seconds(30))
      #expect(text(try await cache.response(for: key)) == "x")
      #expect(server.requests.count == 1)
    }
  }

  @Test("set stores as if the response had just arrived; an expiry overrides its freshness")
  func setting() async throws {
    try await withCache { _, _, now in
      dated("origin", now, [])
    } run: { server, cache, memory, clock in
      let key = HTTPRequestKey(server.url("/set"))
      let fresh = HTTPResponse(
        status: 200, headers: ["Cache-Control": "max-age=60"], body: Data("s".utf8))
      try await cache.set(fresh, forKey: key)
      #expect(text(try await cache.response(for: key)) == "s")
      try await cache.set(fresh, forKey: key, expiry: .after(.seconds(5)))
      clock.advance(by: .seconds(6))
      #expect(text(try await cache.response(for: key)) == "origin")
      let uncacheable = HTTPResponse(status: 200, headers: ["Cache-Control": "no-store"])
      try await cache.set(uncacheable, forKey: key)
      await #expect(throws: (any Error).self) { _ = try await memory.entry(forKey: key.cacheKey) }
      #expect(server.requests.count == 1)
    }
  }

  @Test("Cancelling a cache get cancels the request to the server")
  func cancellation() async throws {
    try await withServer { _ in
      .hang
    } run: { server, client in
      let cache = MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry>()
        .caching(HTTPFetcher(client: client))
      let future: Future<HTTPResponse> = cache.get(HTTPRequestKey(server.url("/held")))
      #expect(await server.wait(upTo: .seconds(30)) { server.requests.count == 1 })
      future.cancel()
      #expect(await server.wait(upTo: .seconds(30)) { server.closes.count == 1 })
      await #expect(throws: CancellationError.self) { _ = try await future.value }
    }
  }
}
#endif
