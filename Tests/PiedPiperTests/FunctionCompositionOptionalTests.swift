import PiedPiper
import Testing

@Suite(">>> on functions that return optionals")
struct FunctionCompositionOptionalTests {
  let parse: @Sendable (String) -> Int? = { Int($0) }
  let halve: @Sendable (Int) -> Int? = { $0.isMultiple(of: 2) ? $0 / 2 : nil }

  @Test("The second function runs on the first one's value")
  func bothSucceed() {
    #expect((parse >>> halve)("10") == 5)
  }

  @Test("nil from either function gives nil")
  func eitherNil() {
    #expect((parse >>> halve)("ten") == nil)
    #expect((parse >>> halve)("7") == nil)
  }

  @Test("nil from the first function skips the second")
  func skipsSecond() {
    let calls = Counter()
    let counted: @Sendable (Int) -> Int? = { value in
      calls.increment()
      return value
    }
    #expect((parse >>> counted)("x") == nil)
    #expect(calls.value == 0)
    #expect((parse >>> counted)("3") == 3)
    #expect(calls.value == 1)
  }

  @Test("Composition is associative")
  func associative() {
    let describe: @Sendable (Int) -> String? = { $0 > 0 ? "\($0)" : nil }
    for input in ["8", "6", "0", "-4", "x", "3"] {
      #expect(((parse >>> halve) >>> describe)(input) == (parse >>> (halve >>> describe))(input))
    }
  }
}
