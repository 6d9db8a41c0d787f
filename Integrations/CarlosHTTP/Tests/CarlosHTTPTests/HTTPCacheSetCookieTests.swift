#if HTTP
import Carlos
import CarlosHTTP
import Foundation
import Testing

@Suite("HTTPCache and Set-Cookie")
struct HTTPCacheSetCookieTests {
  let request = HTTPRequestKey(URL(string: "http://origin.test/login")!)
  let now = Date(timeIntervalSince1970: 1_750_000_000)
  let withCookie = HTTPResponse(
    status: 200, headers: ["Cache-Control": "public, max-age=60", "Set-Cookie": "session=alice"],
    body: Data("hello alice".utf8))

  /// The record `policy` stores for ``withCookie``.
  func record(_ policy: HTTPCachePolicy) -> HTTPCacheRecord? {
    policy.record(for: withCookie, to: request, requestTime: now, responseTime: now)
  }

  @Test(
    "A shared cache does not store a response that sets a cookie, unless told to",
    arguments: [HTTPCachePolicy.shared, .cdn, HTTPCachePolicy(isShared: true)])
  func sharedCacheRefuses(policy: HTTPCachePolicy) {
    #expect(!policy.storesResponsesWithSetCookie)
    #expect(record(policy) == nil)
    var allowing = policy
    allowing.storesResponsesWithSetCookie = true
    #expect(record(allowing) != nil)
  }

  @Test(
    "A private cache stores a response that sets a cookie, unless told not to",
    arguments: [HTTPCachePolicy.private, HTTPCachePolicy(isShared: false)])
  func privateCacheStores(policy: HTTPCachePolicy) {
    #expect(policy.storesResponsesWithSetCookie)
    #expect(record(policy) != nil)
    var refusing = policy
    refusing.storesResponsesWithSetCookie = false
    #expect(record(refusing) == nil)
  }

  @Test("A CDN cache never serves one client's cookie to another")
  func cookieIsNotServedToAnother() async throws {
    let origin = SlowOrigin(delay: .zero) { _, index in
      originResponse(
        "user \(index)", ["Cache-Control": "public, max-age=60", "Set-Cookie": "session=\(index)"])
    }
    let cache = origin.cache(policy: .cdn)
    let first = try await cache.response(for: request)
    let second = try await cache.response(for: request)
    #expect(first.headers["Set-Cookie"] == "session=0")
    #expect(second.headers["Set-Cookie"] == "session=1")
    #expect(origin.calls == 2)
  }
}
#endif
