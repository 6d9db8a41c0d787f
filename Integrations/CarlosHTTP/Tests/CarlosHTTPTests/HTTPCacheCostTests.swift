#if HTTP
import Carlos
import CarlosHTTP
import Foundation
import Testing

@Suite("HTTPCache costs")
struct HTTPCacheCostTests {
  let now = Date(timeIntervalSince1970: 1_750_000_000)

  /// The cost of `value` when it is an ``ExpensiveObject``, or `nil`.
  func cost(_ value: some Any) -> Int? {
    (value as? any ExpensiveObject)?.cost
  }

  /// A record of `response` selected by `fields`.
  func record(_ response: HTTPResponse, selectingFields fields: HTTPHeaderFields = [:])
    -> HTTPCacheRecord
  {
    HTTPCacheRecord(
      response: response, requestTime: now, responseTime: now, initialAge: 0, freshUntil: now,
      keepUntil: now, selectingFields: fields)
  }

  @Test("A key costs its method's and URI's bytes and more")
  func keyCost() throws {
    let path = "/" + String(repeating: "a", count: 8_000)
    let key = HTTPCacheKey(url: URL(string: "http://origin.test" + path)!)
    let keyCost = try #require(cost(key))
    #expect(keyCost >= "GET".utf8.count + key.uri.utf8.count)
    let shortCost = try #require(cost(HTTPCacheKey(url: URL(string: "http://origin.test/")!)))
    #expect(keyCost - shortCost == 8_000)
    let entry = HTTPCacheEntry(variants: [record(originResponse("x"))])
    #expect(keyCost + entry.cost >= 8_000)
  }

  @Test("A record counts the request fields it keeps to match Vary")
  func varyFieldsCount() {
    let response = originResponse("x", ["Vary": "X-Long"])
    let long = String(repeating: "v", count: 4_000)
    let plain = record(response)
    let selected = record(response, selectingFields: ["x-long": long])
    #expect(selected.cost - plain.cost >= 4_000 + "x-long".utf8.count)
  }

  @Test("A record and an entry cost more than their bytes: what keeps them in memory")
  func overheads() {
    let empty = record(HTTPResponse(status: 204))
    #expect(empty.cost >= 256)
    #expect(HTTPCacheEntry().cost > 0)
    let entry = HTTPCacheEntry(variants: [empty, empty])
    #expect(entry.cost > 2 * empty.cost)
    #expect(entry.cost - 2 * empty.cost == HTTPCacheEntry().cost)
  }
}
#endif
