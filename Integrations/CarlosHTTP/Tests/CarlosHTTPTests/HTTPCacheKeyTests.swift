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

  @Test("Default ports, empty paths and escapes of unreserved characters are normalised")
  func normalisation() {
    func uri(_ text: String) -> String { HTTPCacheKey(url: URL(string: text)!).uri }
    #expect(uri("https://example.com:443") == "https://example.com/")
    #expect(uri("http://example.com:8080/") == "http://example.com:8080/")
    #expect(uri("http://example.com/%7euser/%2f%41") == "http://example.com/~user/%2FA")
    #expect(uri("http://example.com/a?b=%7e") == "http://example.com/a?b=~")
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
    ]
    let other = [
      "HTTP://example.com/", "http://Example.com/", "http://example.com:80/a",
      "https://example.com:443/a", "http://example.com", "http://example.com?q",
      "http://example.com/%7Euser", "http://example.com/a#frag", "http://exämple.com/",
      "ftp://example.com/", "http://example.com/caf%c3%a9", "http://example.com#x/y",
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
