import Carlos
import Foundation
import Testing

@Suite("NSString and NSData as ExpensiveObject")
struct FoundationObjectsExpensiveObjectTests {
  @Test("An NSString costs its length in UTF-16 code units")
  func string() {
    #expect(("hello" as NSString).cost == 5)
    #expect(NSString(string: "").cost == 0)
    #expect(NSString(string: "é🙂").cost == 3)
  }

  @Test("An NSData costs its length in bytes")
  func data() {
    #expect(NSData(data: Data(count: 17)).cost == 17)
    #expect(NSData().cost == 0)
  }
}
