#if HTTP
import Carlos
import CarlosHTTP
import Foundation
import Testing

@Suite("HTTPCache: ranges from stored responses")
struct HTTPCacheRangeTests {
  @Test(
    "One byte range of a fresh stored response is a 206 with Content-Range; past the end a 416; several ranges the whole"
  )
  func ranges() async throws {
    try await withCache { _, _, now in
      dated("0123456789", now, [("Cache-Control", "max-age=600"), ("ETag", "\"r\"")])
    } run: { server, cache, _, _ async throws in
      let url = server.url("/range")
      _ = try await cache.response(for: HTTPRequestKey(url))
      func get(_ range: String, _ extra: HTTPHeaderFields = [:]) async throws -> HTTPResponse {
        var fields = extra
        fields.add(name: "Range", value: range)
        return try await cache.response(for: HTTPRequestKey(url, headers: fields))
      }
      let middle = try await get("bytes=2-4")
      #expect(middle.status == 206)
      #expect(text(middle) == "234")
      #expect(middle.headers["Content-Range"] == "bytes 2-4/10")
      #expect(text(try await get("bytes=7-")) == "789")
      #expect(text(try await get("bytes=-2")) == "89")
      #expect(try await get("bytes=20-").status == 416)
      #expect(try await get("bytes=0-1, 4-5").status == 200)
      #expect(try await get("bytes=0-1", ["If-Range": "\"other\""]).status == 200)
      #expect(try await get("bytes=0-1", ["If-Range": "\"r\""]).status == 206)
      #expect(server.requests.count == 1)
    }
  }
}
#endif
