#if HTTP
import CarlosHTTPCaching
import Testing

@Suite("Hop-by-hop header fields")
struct HTTPHeaderFieldsHopByHopTests {
  @Test("The fixed hop-by-hop names go, whatever their case; the others stay, in order")
  func fixedNames() {
    let fields: HTTPHeaderFields = [
      "Cache-Control": "max-age=60", "connection": "close", "KEEP-ALIVE": "timeout=5",
      "Te": "trailers", "Trailer": "Expires", "Transfer-Encoding": "chunked",
      "Upgrade": "h2c", "Content-Type": "text/plain", "ETag": "\"a\"",
    ]
    #expect(
      fields.removingHopByHop()
        == ["Cache-Control": "max-age=60", "Content-Type": "text/plain", "ETag": "\"a\""])
  }

  @Test("Fields whose names start with proxy- go")
  func proxyPrefix() {
    let fields: HTTPHeaderFields = [
      "Proxy-Authorization": "Basic x", "proxy-connection": "keep-alive", "Proxy-": "1",
      "Proxy": "stays", "Age": "3",
    ]
    #expect(fields.removingHopByHop() == ["Proxy": "stays", "Age": "3"])
  }

  @Test("Fields named in Connection go, from every Connection field, spaces and case ignored")
  func namedInConnection() {
    let fields: HTTPHeaderFields = [
      "Connection": " X-Secret , ,x-other", "X-Secret": "1", "x-other": "2",
      "connection": "X-THIRD", "X-Third": "3", "X-Kept": "4",
    ]
    #expect(fields.removingHopByHop() == ["X-Kept": "4"])
  }

  @Test("Names outside ASCII are compared byte by byte, without a crash")
  func nonASCIINames() {
    let fields: HTTPHeaderFields = [
      "prox\u{E9}-a": "1", "\u{E9}\u{E9}\u{E9}\u{E9}": "2", "Proxy-\u{E9}": "3",
    ]
    #expect(fields.removingHopByHop() == ["prox\u{E9}-a": "1", "\u{E9}\u{E9}\u{E9}\u{E9}": "2"])
  }

  @Test("Fields without a hop-by-hop one come back as they were")
  func nothingToRemove() {
    let fields: HTTPHeaderFields = ["Date": "x", "Vary": "Accept", "Age": "1"]
    #expect(fields.removingHopByHop() == fields)
    #expect(HTTPHeaderFields().removingHopByHop().isEmpty)
  }
}
#endif
