#if HTTP
import AsyncHTTPClient
import Carlos
import CarlosHTTP
import Foundation
import Testing

// The README's example, word for word from `func pages` to its end.

/// A memory level and a disk level in front of the HTTP level: responses are kept
/// as long as their headers allow, in memory and on disk.
func pages(client: HTTPClient, folder: String) -> some CacheLevel<HTTPRequestKey, HTTPResponse> {
  let memory = MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry>(capacity: 50 << 20)
  let disk = DiskCacheLevel<HTTPCacheKey, HTTPCacheEntry>(path: folder, capacity: 500 << 20)
  let http = HTTPFetcher(client: client, timeout: .seconds(10), maximumResponseSize: 10 << 20)
  return (memory >>> disk).caching(http, policy: .private)
}

func show(_ url: URL, client: HTTPClient, folder: String) async throws -> [HTTPResponse] {
  let cache = pages(client: client, folder: folder)
  let first: HTTPResponse = try await cache.get(HTTPRequestKey(url))  // asks the server
  let second: HTTPResponse = try await cache.get(HTTPRequestKey(url))  // from memory, while fresh
  // A new process (here: new levels on the same folder) finds it on disk.
  let third: HTTPResponse = try await pages(client: client, folder: folder).get(HTTPRequestKey(url))
  return [first, second, third]
}

@Suite("README example")
struct ReadmeExampleTests {
  @Test("memory >>> disk in front of the HTTP level caches a local server's responses")
  func example() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("carlos-http-readme-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try await withServer { _ in
      ok("<h1>hello</h1>", [("Cache-Control", "max-age=300"), ("ETag", "\"1\"")])
    } run: { server, client in
      let responses = try await show(server.url("/index.html"), client: client, folder: folder)
      #expect(responses.map(\.status) == [200, 200, 200])
      #expect(responses.allSatisfy { $0.body == Data("<h1>hello</h1>".utf8) })
      #expect(server.requests.count == 1)
    }
  }
}
#endif
