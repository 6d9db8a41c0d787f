import Carlos
import Testing

/// Laws of the transformer algebra, over generated inputs.
@Suite("Transformer algebra")
struct TransformerAlgebraTests {
  /// Affine maps x ↦ a·x + b with a ∈ {±1, ±3}: invertible over Int with wrapping arithmetic.
  static func affine(_ a: Int, _ b: Int) -> TwoWayTransformationBox<Int, Int> {
    let inverseOfA = [1: 1, -1: -1, 3: -6_148_914_691_236_517_205, -3: 6_148_914_691_236_517_205][
      a]!
    return TwoWayTransformationBox(
      transform: { Future($0 &* a &+ b) },
      inverseTransform: { Future(($0 &- b) &* inverseOfA) }
    )
  }

  static func randomAffine(_ generator: inout SeededGenerator) -> TwoWayTransformationBox<Int, Int>
  {
    affine(
      [1, -1, 3, -3].randomElement(using: &generator)!,
      Int.random(in: -1000...1000, using: &generator))
  }

  @Test("invert().invert() behaves like the transformer", arguments: 0..<100)
  func doubleInversion(seed: Int) {
    var generator = SeededGenerator(seed: UInt64(seed))
    let t = Self.randomAffine(&generator)
    let twice = t.invert().invert()
    for _ in 0..<20 {
      let x = Int.random(in: Int.min...Int.max, using: &generator)
      #expect(twice.transform(x).result?.value == t.transform(x).result?.value)
      #expect(twice.inverseTransform(x).result?.value == t.inverseTransform(x).result?.value)
    }
  }

  @Test("t >>> t.invert() round-trips and so does the inverse", arguments: 0..<100)
  func roundTrip(seed: Int) {
    var generator = SeededGenerator(seed: UInt64(seed) &+ 1_000)
    let t = Self.randomAffine(&generator)
    let there = t >>> t.invert()
    for _ in 0..<20 {
      let x = Int.random(in: Int.min...Int.max, using: &generator)
      #expect(there.transform(x).result?.value == x)
      #expect(there.inverseTransform(x).result?.value == x)
      #expect(t.transform(x).flatMap { t.inverseTransform($0) }.result?.value == x)
    }
  }

  @Test("composition of two-way transformers is associative both ways", arguments: 0..<100)
  func associativity(seed: Int) {
    var generator = SeededGenerator(seed: UInt64(seed) &+ 2_000)
    let (f, g, h) = (
      Self.randomAffine(&generator), Self.randomAffine(&generator), Self.randomAffine(&generator)
    )
    let left = (f >>> g) >>> h
    let right = f >>> (g >>> h)
    for _ in 0..<20 {
      let x = Int.random(in: Int.min...Int.max, using: &generator)
      #expect(left.transform(x).result?.value == right.transform(x).result?.value)
      #expect(left.inverseTransform(x).result?.value == right.inverseTransform(x).result?.value)
    }
  }

  @Test("composition of one-way transformers and closures is associative", arguments: 0..<50)
  func oneWayAssociativity(seed: Int) {
    var generator = SeededGenerator(seed: UInt64(seed) &+ 3_000)
    let a = Int.random(in: -50...50, using: &generator)
    let f = OneWayTransformationBox<Int, Int> { Future($0 &+ a) }
    let g = OneWayTransformationBox<Int, String> { Future(String($0)) }
    let h: @Sendable (String) -> Future<Int> = { Future($0.count) }
    let left = (f >>> g) >>> h
    let right = f >>> (g >>> h)
    for _ in 0..<20 {
      let x = Int.random(in: -100_000...100_000, using: &generator)
      #expect(left.transform(x).result?.value == right.transform(x).result?.value)
      #expect(left.transform(x).result?.value == String(x &+ a).count)
    }
  }

  @Test("a failure anywhere in a composition fails the whole")
  func failurePropagates() {
    let failing = OneWayTransformationBox<Int, Int> { _ in Future(TestError(4)) }
    let ok = OneWayTransformationBox<Int, Int> { Future($0) }
    #expect((ok >>> failing >>> ok).transform(1).result?.error as? TestError == TestError(4))
  }

  @Test("conditioned transformers run only when the condition holds")
  func conditionedTransformers() {
    let t = Self.affine(1, 10)
    let positiveOnly = t.conditioned({ Future($0 > 0) }, inverseCondition: { Future($0 > 10) })
    #expect(positiveOnly.transform(5).result?.value == 15)
    #expect(positiveOnly.transform(-5).result?.error as? FetchError == .conditionNotSatisfied)
    #expect(positiveOnly.inverseTransform(15).result?.value == 5)
    #expect(positiveOnly.inverseTransform(3).result?.error as? FetchError == .conditionNotSatisfied)
    let oneWay = OneWayTransformationBox<Int, Int> { Future($0 * 2) }.conditioned {
      Future($0 != 0)
    }
    #expect(oneWay.transform(2).result?.value == 4)
    #expect(oneWay.transform(0).result?.error as? FetchError == .conditionNotSatisfied)
  }

  @Test("keyed transformers: boxes, conversion from plain transformers, invert()")
  func keyedTransformers() {
    let keyed = ConditionedTwoWayTransformationBox<String, Int, Int>(
      conditionalTransformClosure: { key, value in Future(value + key.count) },
      conditionalInverseTransformClosure: { key, value in Future(value - key.count) }
    )
    #expect(keyed.conditionalTransform(key: "abc", value: 1).result?.value == 4)
    let inverted = keyed.invert()
    #expect(inverted.conditionalTransform(key: "abc", value: 4).result?.value == 1)
    #expect(inverted.invert().conditionalTransform(key: "ab", value: 1).result?.value == 3)

    let fromPlain = ConditionedTwoWayTransformationBox<String, Int, Int>(
      transformer: Self.affine(-1, 0))
    #expect(fromPlain.conditionalTransform(key: "ignored", value: 7).result?.value == -7)
    #expect(fromPlain.conditionalInverseTransform(key: "ignored", value: -7).result?.value == 7)
    let oneWay = ConditionedOneWayTransformationBox<String, Int, Int>(
      transformer: Self.affine(3, 1))
    #expect(oneWay.conditionalTransform(key: "k", value: 2).result?.value == 7)
  }
}
