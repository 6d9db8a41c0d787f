#if HTTP
import Carlos
import CarlosHTTP
import Foundation
import Testing

@Suite("HTTPCache: stale responses, heuristics, targeted fields")
struct HTTPCacheStalenessTests {
  @Test(
    "stale-while-revalidate serves the stale response at once and refreshes it in the background")
  func staleWhileRevalidate() async throws {
    try await withCache { _, index, now in
      dated("#\(index)", now, [("Cache-Control", "max-age=10, stale-while-revalidate=60")])
    } run: { server, cache, memory, clock async throws in
      let key = HTTPRequestKey(server.url("/swr"))
      _ = try await cache.response(for: key)
      clock.advance(by: .seconds(30))
      #expect(text(try await cache.response(for: key)) == "#0")
      #expect(await server.wait(upTo: .seconds(5)) { server.requests.count == 2 })
      var refreshed = false
      for _ in 0..<500 where !refreshed {
        let stored = try? await memory.entry(forKey: key.cacheKey).value.variants.first
        refreshed = stored.map { text($0.response) == "#1" } ?? false
        if !refreshed { try await Task.sleep(for: .milliseconds(10)) }
      }
      #expect(refreshed)
      #expect(text(try await cache.response(for: key)) == "#1")
      clock.advance(by: .seconds(100))
      #expect(text(try await cache.response(for: key)) == "#2")
    }
  }

  @Test("stale-if-error serves the stale response when the origin answers 5xx, within its window")
  func staleIfError() async throws {
    try await withCache { _, index, now in
      index == 0
        ? dated("ok", now, [("Cache-Control", "max-age=10, stale-if-error=60")])
        : .respond(status: 503, headers: [], body: Data("down".utf8))
    } run: { server, cache, _, clock async throws in
      let key = HTTPRequestKey(server.url("/sie"))
      _ = try await cache.response(for: key)
      clock.advance(by: .seconds(30))
      let rescued = try await cache.response(for: key)
      #expect(rescued.status == 200)
      #expect(text(rescued) == "ok")
      clock.advance(by: .seconds(60))
      #expect(try await cache.response(for: key).status == 503)
    }
  }

  @Test(
    "Heuristic freshness: a tenth of the time since Last-Modified, unless the policy turns it off")
  func heuristic() async throws {
    for enabled in [true, false] {
      let policy = HTTPCachePolicy(heuristicFreshness: enabled)
      try await withCache(policy: policy) { _, index, now in
        dated("#\(index)", now, [("Last-Modified", HTTPDate.format(now.addingTimeInterval(-1000)))])
      } run: { server, cache, _, clock async throws in
        let key = HTTPRequestKey(server.url("/heuristic"))
        _ = try await cache.response(for: key)
        clock.advance(by: .seconds(50))
        #expect(text(try await cache.response(for: key)) == (enabled ? "#0" : "#1"))
        clock.advance(by: .seconds(60))
        #expect(server.requests.count == (enabled ? 1 : 2))
      }
    }
  }

  @Test("A CDN policy obeys CDN-Cache-Control over Cache-Control; other caches ignore it")
  func targeted() async throws {
    for policy in [HTTPCachePolicy.cdn, .shared] {
      try await withCache(policy: policy) { _, index, now in
        dated(
          "#\(index)", now,
          [("Cache-Control", "no-store"), ("CDN-Cache-Control", "max-age=600")])
      } run: { server, cache, _, _ async throws in
        let key = HTTPRequestKey(server.url("/cdn"))
        _ = try await cache.response(for: key)
        #expect(text(try await cache.response(for: key)) == (policy == .cdn ? "#0" : "#1"))
      }
    }
  }

  @Test("must-understand stores a status the cache understands despite no-store, and no other")
  func mustUnderstand() async throws {
    for status in [200, 599] {
      try await withCache { _, index, now in
        .respond(
          status: status,
          headers: [
            ("Date", HTTPDate.format(now)),
            ("Cache-Control", "max-age=600, no-store, must-understand"),
          ], body: Data("#\(index)".utf8))
      } run: { server, cache, _, _ async throws in
        let key = HTTPRequestKey(server.url("/mu"))
        _ = try await cache.response(for: key)
        #expect(text(try await cache.response(for: key)) == (status == 200 ? "#0" : "#1"))
      }
    }
  }

  @Test("Any status with explicit freshness is stored; a 302 is passed on and stored in proxy mode")
  func redirectsPassedOn() async throws {
    try await withCache(redirects: .passOn) { request, index, now in
      request.uri == "/from"
        ? .respond(
          status: 302,
          headers: [
            ("Date", HTTPDate.format(now)), ("Location", "/to"), ("Cache-Control", "max-age=60"),
          ],
          body: Data("#\(index)".utf8))
        : dated("target", now, [])
    } run: { server, cache, _, _ async throws in
      let key = HTTPRequestKey(server.url("/from"))
      let first = try await cache.response(for: key)
      #expect(first.status == 302)
      #expect(first.headers["Location"] == "/to")
      #expect(try await cache.response(for: key).status == 302)
      #expect(server.requests.map(\.uri) == ["/from"])
    }
  }
}
#endif
