import Carlos
import Foundation
import Testing

/// The README's one-liners compile without parentheses and mean what they say.
@Suite("Operator precedence")
struct OperatorPrecedenceTests {
  @Test("=>> binds tighter than <?>, which binds tighter than >>>")
  func precedence() {
    let memory = SpyLevel<String, Int>()
    let numbers = SpyLevel<Int, Int>([1: 10, 2: 20])
    let toInt: @Sendable (String) -> Future<Int> = {
      Future(value: Int($0), error: FetchError.invalidKey)
    }
    let onlyShortKeys: @Sendable (String) -> Future<Bool> = { Future($0.count < 3) }
    // Reads as: memory >>> (onlyShortKeys <?> (toInt =>> numbers))
    let cache = memory >>> onlyShortKeys <?> toInt =>> numbers
    #expect(Outcome(cache.get("1")) == .success(10))
    #expect(memory.storage["1"] == 10)
    #expect(cache.get("1000").result?.error as? FetchError == .conditionNotSatisfied)
  }

  @Test("<?> is right-associative: conditions stack")
  func conditionsStack() {
    let level = SpyLevel<Int, Int>([1: 1, 4: 4, 6: 6])
    let positive: @Sendable (Int) -> Future<Bool> = { Future($0 > 0) }
    let even: @Sendable (Int) -> Future<Bool> = { Future($0 % 2 == 0) }
    let cache = positive <?> even <?> level
    #expect(Outcome(cache.get(4)) == .success(4))
    #expect(cache.get(1).result?.error as? FetchError == .conditionNotSatisfied)
  }

  @Test("=>> is left-associative: key transformation then value transformation")
  func transformationChain() {
    let level = SpyLevel<Int, Int>([3: 30])
    let count: @Sendable (String) -> Future<Int> = { Future($0.count) }
    let asText = TwoWayTransformationBox<Int, String>(
      transform: { Future(String($0)) },
      inverseTransform: { Future(value: Int($0), error: FetchError.valueTransformationFailed) }
    )
    let cache = count =>> level =>> asText
    #expect(Outcome(cache.get("abc")) == .success("30"))
  }
}
