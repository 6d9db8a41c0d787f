#if HTTP
import Carlos
import CarlosHTTP
import Foundation
import Testing

@Suite("HTTPCache: Vary and variants")
struct HTTPCacheVaryTests {
  /// A server whose response varies on `Accept-Language` and echoes it.
  private static func varying(
    _ request: TestServer.Request, _ index: Int, _ now: Date
  ) -> TestServer.Reply {
    dated(
      "\(request.header("Accept-Language") ?? "none") #\(index)", now,
      [("Cache-Control", "max-age=60"), ("Vary", "Accept-Language")])
  }

  @Test("Request header fields not named by Vary do not change the key")
  func fieldsAreNotTheKey() async throws {
    try await withCache { _, index, now in
      dated("v\(index)", now, [("Cache-Control", "max-age=60")])
    } run: { server, cache, _, _ async throws in
      let url = server.url("/k")
      #expect(text(try await cache.response(for: HTTPRequestKey(url))) == "v0")
      let other = HTTPRequestKey(url, headers: ["Accept": "text/html", "X-Trace": "1"])
      #expect(text(try await cache.response(for: other)) == "v0")
      #expect(server.requests.count == 1)
      #expect(server.requests[0].header("X-Trace") == nil)
    }
  }

  @Test("Header fields of the request are sent to the origin")
  func fieldsAreSent() async throws {
    try await withCache { request, _, now in
      dated(request.header("X-Trace") ?? "none", now, [])
    } run: { server, cache, _, _ async throws in
      let key = HTTPRequestKey(server.url("/sent"), headers: ["X-Trace": "abc"])
      #expect(text(try await cache.response(for: key)) == "abc")
    }
  }

  @Test(
    "A Vary response answers only requests with the same nominated fields; several variants live under one key"
  )
  func variants() async throws {
    try await withCache(Self.varying) { server, cache, memory, _ async throws in
      let url = server.url("/v")
      let english = HTTPRequestKey(url, headers: ["Accept-Language": "en"])
      let german = HTTPRequestKey(url, headers: ["Accept-Language": "de"])
      let none = HTTPRequestKey(url)
      #expect(text(try await cache.response(for: english)) == "en #0")
      #expect(text(try await cache.response(for: german)) == "de #1")
      #expect(text(try await cache.response(for: none)) == "none #2")
      #expect(text(try await cache.response(for: english)) == "en #0")
      #expect(text(try await cache.response(for: german)) == "de #1")
      #expect(text(try await cache.response(for: none)) == "none #2")
      #expect(server.requests.count == 3)
      #expect(try await memory.entry(forKey: english.cacheKey).value.variants.count == 3)
    }
  }

  @Test(
    "Nominated values match after normalising whitespace, and case and order where the field ignores them; another value does not"
  )
  func normalisedMatch() async throws {
    try await withCache { request, index, now in
      dated(
        "#\(index)", now, [("Cache-Control", "max-age=60"), ("Vary", "Accept-Encoding, Foo")])
    } run: { server, cache, _, _ async throws in
      let url = server.url("/n")
      let first = HTTPRequestKey(url, headers: ["Accept-Encoding": "gzip, br", "Foo": "1,2"])
      let same = HTTPRequestKey(url, headers: ["accept-encoding": "BR,gzip", "foo": " 1, 2 "])
      let moreValues = HTTPRequestKey(
        url, headers: ["Accept-Encoding": "gzip, br", "Foo": "1,2", "foo": "3"])
      #expect(text(try await cache.response(for: first)) == "#0")
      #expect(text(try await cache.response(for: same)) == "#0")
      #expect(text(try await cache.response(for: moreValues)) == "#1")
    }
  }

  @Test("Vary: * is never reused, in any spelling")
  func varyStar() async throws {
    for vary in ["*", "Accept, *", ", *"] {
      try await withCache { _, index, now in
        dated("#\(index)", now, [("Cache-Control", "max-age=60"), ("Vary", vary)])
      } run: { server, cache, _, _ async throws in
        let key = HTTPRequestKey(server.url("/star"))
        #expect(text(try await cache.response(for: key)) == "#0")
        #expect(text(try await cache.response(for: key)) == "#1")
      }
    }
  }

  @Test("Two caches on one storage share responses and their variants")
  func sharedStorage() async throws {
    try await withCache(Self.varying) { server, cache, memory, clock async throws in
      let url = server.url("/shared")
      _ = try await cache.response(for: HTTPRequestKey(url, headers: ["Accept-Language": "en"]))
      _ = try await cache.response(for: HTTPRequestKey(url, headers: ["Accept-Language": "de"]))
      let other = memory.caching(cache.origin, clock: clock)
      let german = try await other.response(
        for: HTTPRequestKey(url, headers: ["Accept-Language": "de"]))
      #expect(text(german) == "de #1")
      #expect(server.requests.count == 2)
    }
  }

  @Test("A new response to a request replaces the variant that request selects, and only it")
  func replacement() async throws {
    try await withCache(Self.varying) { server, cache, memory, _ async throws in
      let url = server.url("/r")
      let english = HTTPRequestKey(url, headers: ["Accept-Language": "en"])
      let german = HTTPRequestKey(url, headers: ["Accept-Language": "de"])
      _ = try await cache.response(for: english)
      _ = try await cache.response(for: german)
      let refresh = HTTPRequestKey(
        url, headers: ["Accept-Language": "en", "Cache-Control": "no-cache"])
      #expect(text(try await cache.response(for: refresh)) == "en #2")
      let entry = try await memory.entry(forKey: english.cacheKey).value
      #expect(entry.variants.map { text($0.response) } == ["en #2", "de #1"])
      #expect(text(try await cache.response(for: german)) == "de #1")
    }
  }

  @Test(
    "Normalising selected fields twice changes nothing, whatever quotes and escapes the values hold"
  )
  func normalisingIsIdempotent() {
    let values = [
      // An unclosed quote in the last member, sorted before a member with a quoted
      // comma (found by fuzzing).
      #"a="x ,  y", \"d"#,
      #"b, a, \2q\\"d,y, 0="#,
      // An escaped quote inside a quoted string.
      #"x="a\"b, c", y"#,
      // An unclosed quote that ends in a lone backslash.
      #"z, "a\"#,
      #"c, "b   "#,
      // A prepended concatenation mark (U+06DD) joins the quote that closes the
      // string, or a comma after it, into one Character (found by fuzzing).
      "\"\u{0E}W\0\u{06DD}",
      "b\u{06DD}, a",
      "\u{06DD} , a",
    ]
    for value in values {
      for name in ["Accept-Encoding", "X-Other"] {
        let vary = HTTPVary(parsing: [name])
        let once = vary.selectingFields(of: [name: value])
        let twice = vary.selectingFields(of: once)
        #expect(once == twice, "\(name): \(value)")
      }
    }
  }
}
#endif
