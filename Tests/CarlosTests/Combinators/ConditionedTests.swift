import Carlos
import Testing

@Suite("Conditions")
struct ConditionedTests {
  @Test("a true condition lets the get through")
  func allowed() {
    let level = SpyLevel<Int, String>([1: "one"])
    let cache = { (_: Int) in Future(true) } <?> level
    #expect(Outcome(cache.get(1)) == .success("one"))
  }

  @Test("a false condition fails with conditionNotSatisfied without asking the level")
  func denied() {
    let level = SpyLevel<Int, String>([1: "one"])
    let cache = level.conditioned { Future($0 > 5) }
    #expect(cache.get(1).result?.error as? FetchError == .conditionNotSatisfied)
    #expect(level.gets.isEmpty)
  }

  @Test("a failing condition fails with its own error")
  func failingCondition() {
    let level = SpyLevel<Int, String>([1: "one"])
    let cache = level.conditioned { _ in Future(TestError(3)) }
    #expect(cache.get(1).result?.error as? TestError == TestError(3))
  }

  @Test("set, clear and memory warnings are not conditioned")
  func notConditioned() {
    let level = SpyLevel<Int, String>()
    let cache = { (_: Int) in Future(false) } <?> level
    cache.set("x", forKey: 2)
    cache.clear()
    cache.onMemoryWarning()
    #expect(level.setKeys == [2])
    #expect(level.clears == 1 && level.memoryWarnings == 1)
  }

  @Test("a skipped level falls through to the next one in a composition")
  func skipsInComposition() {
    let first = SpyLevel<Int, String>([1: "first"])
    let second = SpyLevel<Int, String>([1: "second"])
    let cache = { (_: Int) in Future(false) } <?> first >>> second
    #expect(Outcome(cache.get(1)) == .success("second"))
  }
}
