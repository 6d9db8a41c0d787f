import Carlos
import Testing

/// Associativity and identity of `>>>` on levels, over generated contents.
@Suite("Composition laws")
struct CompositionLawTests {
  /// Three levels with random contents over keys 0..<8, and a replayable request script.
  struct Case {
    let contents: [[Int: Int]]
    let script: [(isSet: Bool, key: Int, value: Int)]

    init(seed: UInt64) {
      var generator = SeededGenerator(seed: seed)
      contents = (0..<3).map { _ in
        var level: [Int: Int] = [:]
        for key in 0..<8 where Bool.random(using: &generator) {
          level[key] = Int.random(in: 0..<1000, using: &generator)
        }
        return level
      }
      script = (0..<30).map { _ in
        (
          Bool.random(using: &generator), Int.random(in: 0..<10, using: &generator),
          Int.random(in: 0..<1000, using: &generator)
        )
      }
    }

    /// Runs the script against a cache built by `build` and returns every outcome
    /// and the final contents of each level.
    func run(
      _ build: ([SpyLevel<Int, Int>]) -> BasicCache<Int, Int>
    ) -> (outcomes: [Outcome<Int>], storage: [[Int: Int]]) {
      let levels = contents.map { SpyLevel<Int, Int>($0) }
      let cache = build(levels)
      let outcomes = script.map { step -> Outcome<Int> in
        if step.isSet {
          return cache.set(step.value, forKey: step.key).result?.value == nil
            ? .failure("set") : .pending
        }
        return Outcome(cache.get(step.key))
      }
      return (outcomes, levels.map(\.storage))
    }
  }

  @Test("(a >>> b) >>> c behaves like a >>> (b >>> c)", arguments: 0..<200)
  func associativity(seed: Int) {
    let testCase = Case(seed: UInt64(seed))
    let left = testCase.run { ($0[0] >>> $0[1]) >>> $0[2] }
    let right = testCase.run { $0[0] >>> ($0[1] >>> $0[2]) }
    #expect(left.outcomes == right.outcomes)
    #expect(left.storage == right.storage)
  }

  @Test("the identity level is neutral on both sides", arguments: 0..<200)
  func identity(seed: Int) {
    let testCase = Case(seed: UInt64(seed))
    let plain = testCase.run { $0[0].normalize() }
    let identityFirst = testCase.run { IdentityLevel<Int, Int>() >>> $0[0] }
    let identityLast = testCase.run { $0[0] >>> IdentityLevel<Int, Int>() }
    #expect(identityFirst.outcomes == plain.outcomes)
    #expect(identityLast.outcomes == plain.outcomes)
    #expect(identityFirst.storage == plain.storage)
    #expect(identityLast.storage == plain.storage)
  }
}
