import Carlos
import Testing

@Suite("normalize")
struct NormalizeTests {
  @Test("any level becomes a BasicCache that forwards every operation")
  func forwards() {
    let level = SpyLevel<Int, String>([1: "one"])
    let basic = level.normalize()
    #expect(Outcome(basic.get(1)) == .success("one"))
    basic.set("two", forKey: 2)
    basic.clear()
    basic.onMemoryWarning()
    #expect(level.setKeys == [2])
    #expect(level.clears == 1 && level.memoryWarnings == 1)
  }

  @Test("an existential level normalizes and composes")
  func existential() {
    let levels: [any CacheLevel<Int, String>] = [
      SpyLevel<Int, String>(), SpyLevel<Int, String>([1: "one"]),
    ]
    let first = levels[0].normalize()
    let second = levels[1].normalize()
    #expect(Outcome((first >>> second).get(1)) == .success("one"))
    let composedDirectly = levels[0] >>> levels[1]
    #expect(Outcome(composedDirectly.get(1)) == .success("one"))
    let existential: any CacheLevel<Int, String> = composedDirectly
    #expect(Outcome(existential.get(1)) == .success("one"))
  }

  @Test("normalizing a BasicCache keeps it as it is")
  func basicStaysBasic() {
    let level = SpyLevel<Int, String>()
    let basic = level.normalize()
    let again = basic.normalize()
    again.set("x", forKey: 1)
    #expect(level.setKeys == [1])
  }
}
