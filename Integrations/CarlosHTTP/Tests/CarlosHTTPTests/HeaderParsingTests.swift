#if HTTP
import CarlosHTTP
import Foundation
import Testing

@testable import CarlosHTTPCaching

@Suite("Header parsing")
struct HeaderParsingTests {
  @Test("Cache-Control: directives, arguments, quoted strings, malformed members skipped")
  func cacheControl() {
    let control = CacheControl(parsing: [
      "Max-Age=60, private=\"set-cookie, x\", ,bad member, no-cache", "s-maxage=\"120\"",
    ])
    #expect(control.maxAge == 60)
    #expect(control.sharedMaxAge == 120)
    #expect(control.isPrivate && control.noCache && !control.noStore)
    #expect(control.directives.first { $0.name == "private" }?.argument == "set-cookie, x")
    #expect(!control.contains("bad"))
    #expect(CacheControl(parsing: control.headerValue) == control)
    #expect(CacheControl(parsing: "max-age=abc").maxAge == 0)
    #expect(CacheControl(parsing: "max-age=99999999999999999999").maxAge == 2_147_483_648)
    #expect(CacheControl(parsing: "max-age=5, max-age=10").maxAge == 5)
    #expect(
      CacheControl(parsing: "max-age =3600, public").maxAge == nil,
      "the grammar has no whitespace around `=`: the member is not a directive")
    #expect(CacheControl(parsing: "max-age= 3600").maxAge == nil)
    #expect(CacheControl(parsing: "max-age= 3600, public").isPublic)
  }

  @Test(
    "Field names and directive names match whatever the case of their ASCII letters, and only those"
  )
  func namesWithoutCase() {
    let fields: HTTPHeaderFields = ["ETag": "\"a\"", "x-[": "1", "Cache-Control": "Max-Age=5"]
    #expect(fields["etag"] == "\"a\"" && fields["ETAG"] == "\"a\"")
    #expect(fields["x-{"] == nil, "[ and { differ by the case bit but are not letters")
    #expect(fields["etag2"] == nil && fields["eta"] == nil)
    #expect(fields.values(for: "cache-control") == ["Max-Age=5"])
    let control = CacheControl(parsing: fields.values(for: "CACHE-CONTROL"))
    #expect(control.contains("MAX-AGE") && control.seconds("max-AGE") == 5)
    #expect(!control.contains("max-ag"))
    var replaced: HTTPHeaderFields = ["Age": "1", "ETag": "\"a\"", "age": "2"]
    replaced.replaceOrAdd(name: "AGE", value: "3")
    #expect(
      replaced.fields == [.init(name: "AGE", value: "3"), .init(name: "ETag", value: "\"a\"")])
    replaced.replaceOrAdd(name: "Vary", value: "Accept")
    #expect(replaced.fields.last == .init(name: "Vary", value: "Accept") && replaced.count == 3)
  }

  @Test("A stored record reads its response's Cache-Control again when the response changes")
  func recordDirectivesFollowTheResponse() {
    let now = Date()
    var record = HTTPCacheRecord(
      response: HTTPResponse(status: 200, headers: ["Cache-Control": "max-age=60"]),
      requestTime: now, responseTime: now, initialAge: 0, freshUntil: now + 60,
      keepUntil: now + 60)
    #expect(HTTPCachePolicy.shared.responseControl(of: record).control.maxAge == 60)
    record.response.headers.replaceOrAdd(name: "Cache-Control", value: "no-cache")
    let changed = HTTPCachePolicy.shared.responseControl(of: record).control
    #expect(changed.noCache && changed.maxAge == nil)
  }

  @Test("HTTP dates in the three formats, impossible dates refused, IMF-fixdate written")
  func dates() {
    let expected = Date(timeIntervalSince1970: 784_111_777)
    #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
    #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
    #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
    #expect(HTTPDate.format(expected) == "Sun, 06 Nov 1994 08:49:37 GMT")
    #expect(HTTPDate.parse("0") == nil)
    #expect(HTTPDate.parse("Thu, 31 Apr 2025 00:00:00 GMT") == nil)
    #expect(HTTPDate.parse("Sat, 29 Feb 2025 00:00:00 GMT") == nil)
    #expect(HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT") != nil)
    #expect(HTTPDate.parse("Sun, 06 Nov 1994 24:00:00 GMT") == nil)
    #expect(HTTPDate.format(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
  }

  @Test("Entity tags: strong, weak, and malformed ones refused")
  func entityTags() {
    #expect(EntityTag(parsing: "\"xyzzy\"") == EntityTag(opaqueTag: "xyzzy"))
    #expect(EntityTag(parsing: " W/\"v1\" ") == EntityTag(opaqueTag: "v1", isWeak: true))
    #expect(EntityTag(parsing: "xyzzy") == nil)
    #expect(EntityTag(parsing: "\"a\"b\"") == nil)
    #expect(EntityTag(parsing: "\"a\"")?.headerValue == "\"a\"")
  }

  @Test("Freshness: s-maxage for shared caches, then max-age, then Expires minus Date; age")
  func freshness() {
    let now = Date(timeIntervalSince1970: 1_750_000_000)
    let date = HTTPDate.format(now)
    let both: HTTPHeaderFields = ["Cache-Control": "max-age=10, s-maxage=20"]
    #expect(HTTPFreshness.lifetime(of: both, shared: true, responseTime: now) == 20)
    #expect(HTTPFreshness.lifetime(of: both, shared: false, responseTime: now) == 10)
    let expires: HTTPHeaderFields = [
      "Date": date, "Expires": HTTPDate.format(now.addingTimeInterval(30)),
    ]
    #expect(HTTPFreshness.lifetime(of: expires, shared: true, responseTime: now) == 30)
    let invalid: HTTPHeaderFields = ["Expires": "0"]
    #expect(HTTPFreshness.lifetime(of: invalid, shared: true, responseTime: now) == 0)
    #expect(HTTPFreshness.lifetime(of: [:], shared: true, responseTime: now) == nil)
    #expect(HTTPFreshness.age(of: ["Age": "7200;foo=bar"]) == 7200, "parameters are ignored")
    #expect(HTTPFreshness.age(of: ["Age": "7200 ; foo=111"]) == 7200)
    #expect(HTTPFreshness.age(of: ["Age": "abc"]) == nil)
    #expect(HTTPFreshness.age(of: ["Age": "7200.0"]) == nil)
    #expect(HTTPFreshness.age(of: ["Age": ";7200"]) == nil)
    let aged: HTTPHeaderFields = ["Age": "15", "Date": date]
    #expect(
      HTTPFreshness.initialAge(of: aged, requestTime: now, responseTime: now.addingTimeInterval(2))
        == 17)
  }

  @Test("The policy refuses what must not be stored, and stores any status with explicit freshness")
  func policy() {
    let url = URL(string: "https://example.com/")!
    let now = Date(timeIntervalSince1970: 1_750_000_000)
    func stored(
      _ headers: HTTPHeaderFields, status: Int = 200, request: HTTPRequestKey? = nil,
      shared: Bool = true
    ) -> Bool {
      HTTPCachePolicy(isShared: shared).record(
        for: HTTPResponse(status: status, headers: headers), to: request ?? HTTPRequestKey(url),
        requestTime: now, responseTime: now) != nil
    }
    #expect(stored(["Cache-Control": "max-age=60"]))
    #expect(!stored(["Cache-Control": "max-age=60, no-store"]))
    #expect(!stored(["Cache-Control": "max-age=60, private"]))
    #expect(stored(["Cache-Control": "max-age=60, private"], shared: false))
    #expect(!stored(["Cache-Control": "max-age=60", "Vary": "accept, *"]))
    #expect(stored(["Cache-Control": "max-age=60"], status: 500))
    #expect(!stored([:], status: 500))
    #expect(stored(["Cache-Control": "max-age=60, no-store, must-understand"]))
    #expect(!stored(["Cache-Control": "max-age=60, must-understand"], status: 599))
    #expect(!stored(["Cache-Control": "max-age=60"], status: 206))
    #expect(!stored([:], status: 302))
    #expect(stored(["Cache-Control": "max-age=60"], status: 302))
    #expect(!stored(["Cache-Control": "no-cache"]))
    #expect(stored(["Cache-Control": "no-cache", "ETag": "\"1\""]))
    let authorized = HTTPRequestKey(url, headers: ["Authorization": "Bearer x"])
    #expect(!stored(["Cache-Control": "max-age=60"], request: authorized))
    #expect(stored(["Cache-Control": "max-age=60, public"], request: authorized))
    #expect(!stored(["Cache-Control": "max-age=60"], request: HTTPRequestKey(url, method: "POST")))
  }
}
#endif
