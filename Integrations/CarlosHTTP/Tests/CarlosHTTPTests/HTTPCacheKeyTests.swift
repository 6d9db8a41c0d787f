#if HTTP
import Carlos
import CarlosHTTP
import Foundation
import Testing

@testable import CarlosHTTPCaching

@Suite("HTTPCacheKey")
struct HTTPCacheKeyTests {
  @Test("The primary key is the method and the normalised URI, whatever the header fields")
  func primaryKey() {
    let plain = HTTPRequestKey(URL(string: "http://example.com/a?q=1")!)
    let withFields = HTTPRequestKey(
      URL(string: "HTTP://Example.COM:80/a?q=1#top")!, method: "get",
      headers: ["Accept": "text/html", "Cookie": "a=b"])
    #expect(plain.cacheKey == withFields.cacheKey)
    #expect(plain.cacheKey.toString() == "GET http://example.com/a?q=1")
    #expect(HTTPRequestKey(URL(string: "http://example.com/a?q=2")!).cacheKey != plain.cacheKey)
    #expect(
      HTTPRequestKey(URL(string: "http://example.com/a?q=1")!, method: "HEAD").cacheKey
        != plain.cacheKey)
  }

  @Test("Default ports and empty paths are normalised; the path and query are kept as sent")
  func normalisation() {
    func uri(_ text: String) -> String { HTTPCacheKey(url: URL(string: text)!).uri }
    #expect(uri("https://example.com:443") == "https://example.com/")
    #expect(uri("http://example.com:8080/") == "http://example.com:8080/")
    #expect(uri("HTTP://Example.com:80?q") == "http://example.com/?q")
    #expect(uri("http://example.com/%7euser/%2f%41") == "http://example.com/%7euser/%2f%41")
    #expect(uri("HTTP://example.com/%7euser/%2f%41") == "http://example.com/%7euser/%2f%41")
    #expect(uri("http://example.com/a?b=%7e") == "http://example.com/a?b=%7e")
    #expect(uri("http://example.com/a/%2e%2e/../b") == "http://example.com/a/%2e%2e/../b")
  }

  @Test("Two targets share a key exactly when the origin receives the same path and query")
  func keyIsTheTargetAsSent() {
    var random = SplitMix64(seed: 0x5EED)
    let pieces = [
      "%41", "%61", "A", "a", "%7E", "%7e", "~", "%2e", "%2E", ".", "..", "/", "%2F", "%2f",
      "?", "=", "%3F",
    ]
    let authorities = ["http://example.com", "HTTP://Example.COM:80", "http://example.com:80"]
    var keys: [String: HTTPCacheKey] = [:]
    var targets: [HTTPCacheKey: String] = [:]
    for _ in 0..<5_000 {
      let count = Int(random.next() % 4) + 1
      let target =
        "/"
        + (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
        .joined()
      let authority = authorities[Int(random.next() % UInt64(authorities.count))]
      guard let url = URL(string: authority + target) else {
        Issue.record("not a URL: \(authority + target)")
        continue
      }
      let key = HTTPCacheKey(url: url)
      #expect(key.uri == "http://example.com" + target, "\(authority + target)")
      if let known = keys[target] { #expect(known == key, "\(target)") }
      if let known = targets[key] { #expect(known == target, "\(target) and \(known)") }
      keys[target] = key
      targets[key] = target
    }
    #expect(keys.count > 1_000)
  }

  @Test("A key survives JSON and names itself the same way after it")
  func codable() throws {
    let key = HTTPCacheKey(method: "HEAD", url: URL(string: "http://Example.com/x")!)
    let decoded = try JSONDecoder().decode(HTTPCacheKey.self, from: JSONEncoder().encode(key))
    #expect(decoded == key)
    #expect(decoded.toString() == "HEAD http://example.com/x")
  }

  @Test("A target already in normal form is taken as it is, and the same as component by component")
  func normalFormShortcut() {
    let normal = [
      "http://example.com/", "https://example.com/a/b?c=d&e", "http://127.0.0.1:8080/x",
      "https://example.com:8443/", "http://user@example.com/p", "http://[::1]:8080/a",
      "http://example.com/%7Euser", "http://example.com/caf%c3%a9", "http://example.com/a?b=%7e",
      "http://example.com/%2e%2e/../%41",
    ]
    let other = [
      "HTTP://example.com/", "http://Example.com/", "http://example.com:80/a",
      "https://example.com:443/a", "http://example.com", "http://example.com?q",
      "http://example.com/a#frag", "http://exämple.com/", "HTTP://example.com/%7Euser",
      "ftp://example.com/", "http://example.com#x/y",
      "http://ex%41mple.com/", "https://example.com:443", "http:/example.com/", "https:",
    ]
    for text in normal {
      let url = URL(string: text)!
      #expect(HTTPCacheKey.isNormal(url.absoluteString), "\(text)")
      #expect(HTTPCacheKey.componentwiseNormalised(url) == text, "\(text)")
    }
    for text in other {
      #expect(!HTTPCacheKey.isNormal(text), "\(text)")
      guard let url = URL(string: text) else { continue }
      #expect(HTTPCacheKey.normalised(url) == HTTPCacheKey.componentwiseNormalised(url), "\(text)")
    }
  }
}
#endif
