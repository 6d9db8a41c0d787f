import Carlos
import Testing

@Suite("NSUserDefaultsCacheLevel, the Carlos 0.x name")
struct NSUserDefaultsCacheLevelTests {
  @Test("It names UserDefaultsCacheLevel")
  @available(*, deprecated)
  func sameType() {
    #expect(NSUserDefaultsCacheLevel<String, Int>.self == UserDefaultsCacheLevel<String, Int>.self)
    // An unusable suite name keeps the test away from the real defaults.
    let level = NSUserDefaultsCacheLevel<String, Int>(name: "")
    let error = level.get("k").result?.error as? UserDefaultsCacheLevelError
    #expect(error == .invalidSuiteName(""))
  }
}
