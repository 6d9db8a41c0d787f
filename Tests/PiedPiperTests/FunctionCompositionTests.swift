import PiedPiper
import Testing

/// A generated function `x -> a * x + b` (wrapping arithmetic).
private struct Affine: Sendable {
  let a: Int
  let b: Int

  init(using generator: inout SplitMix64) {
    a = Int.random(in: -1_000...1_000, using: &generator)
    b = Int.random(in: -1_000_000...1_000_000, using: &generator)
  }

  var function: @Sendable (Int) -> Int {
    { [a, b] x in a &* x &+ b }
  }
}

/// A generated future-returning function: fails for inputs divisible by
/// `failEvery`, otherwise succeeds with an affine value, either at once or
/// a moment later on another thread.
private struct Step: Sendable {
  let affine: Affine
  let failEvery: Int
  let deferred: Bool

  init(using generator: inout SplitMix64, deferred: Bool) {
    affine = Affine(using: &generator)
    failEvery = Int.random(in: 3...11, using: &generator)
    self.deferred = deferred
  }

  var function: @Sendable (Int) -> Future<Int> {
    { [affine, failEvery, deferred] x in
      let future: Future<Int> =
        x.isMultiple(of: failEvery) ? Future(TestError(failEvery)) : Future(affine.function(x))
      return deferred ? future.snooze(0) : future
    }
  }
}

@Suite("Function composition with >>>")
struct FunctionCompositionTests {
  // MARK: Plain closures

  @Test("(f >>> g)(x) == g(f(x))")
  func composesInOrder() {
    let double: @Sendable (Int) -> Int = { $0 * 2 }
    let describe: @Sendable (Int) -> String = { "<\($0)>" }
    let composed: @Sendable (Int) -> String = double >>> describe
    #expect(composed(21) == "<42>")
  }

  @Test("Composition works across types")
  func composesAcrossTypes() {
    let describe: @Sendable (Int) -> String = { String($0) }
    let count: @Sendable (String) -> Int = { $0.count }
    let isEven: @Sendable (Int) -> Bool = { $0.isMultiple(of: 2) }
    let composed: @Sendable (Int) -> Bool = describe >>> count >>> isEven
    #expect(composed(12) == true)
    #expect(composed(123) == false)
  }

  @Test("Composition of plain closures is associative", arguments: 0..<20)
  func plainAssociativity(seed: Int) {
    var generator = SplitMix64(seed: UInt64(seed))
    let f = Affine(using: &generator).function
    let g = Affine(using: &generator).function
    let h = Affine(using: &generator).function
    let left: @Sendable (Int) -> Int = (f >>> g) >>> h
    let right: @Sendable (Int) -> Int = f >>> (g >>> h)
    let unbracketed: @Sendable (Int) -> Int = f >>> g >>> h
    for _ in 0..<500 {
      let x = Int.random(in: Int.min...Int.max, using: &generator)
      let expected = h(g(f(x)))
      #expect(left(x) == expected)
      #expect(right(x) == expected)
      #expect(unbracketed(x) == expected)
    }
  }

  // MARK: Future-returning closures

  @Test("f >>> g runs g on f's value")
  func futureComposition() {
    let parse: @Sendable (String) -> Future<Int> = { text in
      Future(value: Int(text), error: TestError(1))
    }
    let half: @Sendable (Int) -> Future<Double> = { Future(Double($0) / 2) }
    let composed: @Sendable (String) -> Future<Double> = parse >>> half
    #expect(composed("9").result?.value == 4.5)
    #expect(composed("nine").result?.testError == TestError(1))
  }

  @Test("When f fails, g is not called")
  func futureCompositionShortCircuits() {
    let calls = Counter()
    let fail: @Sendable (Int) -> Future<Int> = { _ in Future(TestError(2)) }
    let count: @Sendable (Int) -> Future<Int> = { Future($0 + calls.increment()) }
    let composed: @Sendable (Int) -> Future<Int> = fail >>> count
    #expect(composed(1).result?.testError == TestError(2))
    #expect(calls.value == 0)
  }

  @Test("Cancelling the composed future cancels the running step")
  func futureCompositionCancellation() {
    let first = Promise<Int>()
    let second = Promise<Int>()
    let f: @Sendable (Int) -> Future<Int> = { _ in first.future }
    let g: @Sendable (Int) -> Future<Int> = { _ in second.future }
    let composed: @Sendable (Int) -> Future<Int> = f >>> g
    composed(0).cancel()
    #expect(first.future.result?.isCancelled == true)

    let third = Promise<Int>()
    let h: @Sendable (Int) -> Future<Int> = { _ in third.future }
    let unit: @Sendable (Int) -> Future<Int> = { Future($0) }
    let running = (unit >>> h)(1)
    running.cancel()
    #expect(third.future.result?.isCancelled == true)
  }

  @Test("Composition of future-returning closures is associative", arguments: 0..<20)
  func futureAssociativity(seed: Int) {
    var generator = SplitMix64(seed: UInt64(1_000 + seed))
    let f = Step(using: &generator, deferred: false).function
    let g = Step(using: &generator, deferred: false).function
    let h = Step(using: &generator, deferred: false).function
    let left: @Sendable (Int) -> Future<Int> = (f >>> g) >>> h
    let right: @Sendable (Int) -> Future<Int> = f >>> (g >>> h)
    for _ in 0..<500 {
      let x = Int.random(in: -1_000_000...1_000_000, using: &generator)
      let expected = f(x).flatMap(g).flatMap(h).result?.description
      #expect(expected != nil)
      #expect(left(x).result?.description == expected)
      #expect(right(x).result?.description == expected)
    }
  }

  @Test("Associativity holds when the steps complete later on other threads", arguments: 0..<4)
  func futureAssociativityDeferred(seed: Int) async {
    var generator = SplitMix64(seed: UInt64(2_000 + seed))
    let f = Step(using: &generator, deferred: true).function
    let g = Step(using: &generator, deferred: false).function
    let h = Step(using: &generator, deferred: true).function
    let left: @Sendable (Int) -> Future<Int> = (f >>> g) >>> h
    let right: @Sendable (Int) -> Future<Int> = f >>> (g >>> h)
    let inputs = (0..<50).map { _ in Int.random(in: -1_000_000...1_000_000, using: &generator) }
    for x in inputs {
      let expected = await outcome(of: f(x).flatMap(g).flatMap(h))?.description
      #expect(expected != nil)
      #expect(await outcome(of: left(x))?.description == expected)
      #expect(await outcome(of: right(x))?.description == expected)
    }
  }

  @Test("Future.init is an identity for >>> on both sides", arguments: 0..<5)
  func futureIdentity(seed: Int) {
    var generator = SplitMix64(seed: UInt64(3_000 + seed))
    let f = Step(using: &generator, deferred: false).function
    let unit: @Sendable (Int) -> Future<Int> = { Future($0) }
    let leftUnit: @Sendable (Int) -> Future<Int> = unit >>> f
    let rightUnit: @Sendable (Int) -> Future<Int> = f >>> unit
    for _ in 0..<200 {
      let x = Int.random(in: -1_000_000...1_000_000, using: &generator)
      let expected = f(x).result?.description
      #expect(leftUnit(x).result?.description == expected)
      #expect(rightUnit(x).result?.description == expected)
    }
  }
}
