#if HTTP
import Carlos
import CarlosHTTP
import Foundation
import Testing

@Suite("HTTPRequestKey")
struct HTTPRequestKeyTests {
  let url = URL(string: "https://example.com/a?b=1")!

  @Test("Keys asking for the same thing are equal and name themselves the same way")
  func normalization() {
    let a = HTTPRequestKey(url, method: "get", headers: ["Accept": "x", "X-B": "1", "x-b": "2"])
    let b = HTTPRequestKey(url, headers: ["x-b": "1", "accept": "x", "X-B": "2"])
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    #expect(a.toString() == "GET https://example.com/a?b=1\naccept: x\nx-b: 1\nx-b: 2")
    #expect(HTTPRequestKey(url, headers: ["x-b": "2", "x-b": "1"]) != a)
    #expect(HTTPRequestKey(url, headers: ["a": "1\r\nb: 2"]).toString().contains("\r") == false)
  }

  @Test("A key survives JSON and is a key of memory and disk levels")
  func storable() async throws {
    let key = HTTPRequestKey(url, method: "HEAD", headers: ["Accept": "text/html"])
    let decoded = try JSONDecoder().decode(HTTPRequestKey.self, from: JSONEncoder().encode(key))
    #expect(decoded == key)

    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("carlos-http-key-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let response = HTTPResponse(status: 200, headers: ["ETag": "\"1\""], body: Data("b".utf8))
    let disk = DiskCacheLevel<HTTPRequestKey, HTTPResponse>(path: folder)
    let memory = MemoryCacheLevel<HTTPRequestKey, HTTPResponse>()
    let cache = memory >>> disk
    try await cache.set(response, forKey: key)
    let fromDisk: HTTPResponse = try await disk.get(key)
    let fromMemory: HTTPResponse = try await memory.get(key)
    #expect(fromDisk == response)
    #expect(fromMemory == response)
    let reopened = DiskCacheLevel<HTTPRequestKey, HTTPResponse>(path: folder)
    let again: HTTPResponse = try await reopened.get(decoded)
    #expect(again == response)
  }
}
#endif
