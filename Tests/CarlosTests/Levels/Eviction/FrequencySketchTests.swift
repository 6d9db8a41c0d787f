import Testing

@testable import Carlos

@Suite("FrequencySketch")
struct FrequencySketchTests {
  /// A sketch sized for `entries`, with hash values from a seeded generator.
  func sketch(entries: Int) -> FrequencySketch {
    var sketch = FrequencySketch()
    sketch.ensureCapacity(entries)
    return sketch
  }

  @Test("counts uses, saturating at 15")
  func counts() {
    var sketch = sketch(entries: 512)
    var random = SplitMix64(seed: 1)
    let key = random.next()
    #expect(sketch.frequency(key) == 0)
    for use in 1...20 {
      sketch.increment(key)
      #expect(sketch.frequency(key) == Swift.min(use, 15))
    }
  }

  @Test("keys used rarely stay rare while others are counted")
  func separatesKeys() {
    var sketch = sketch(entries: 512)
    var random = SplitMix64(seed: 2)
    let hot = (0..<50).map { _ in random.next() }
    let cold = (0..<50).map { _ in random.next() }
    for _ in 0..<8 {
      for key in hot { sketch.increment(key) }
    }
    for key in cold { sketch.increment(key) }
    let hotAverage = hot.map(sketch.frequency).reduce(0, +) / hot.count
    let coldAverage = cold.map(sketch.frequency).reduce(0, +) / cold.count
    #expect(hotAverage >= 8)
    #expect(coldAverage <= 2)
  }

  @Test("halving divides every count by two, rounding down")
  func halves() {
    var sketch = sketch(entries: 512)
    let even: UInt64 = 0x1111_2222_3333
    let odd: UInt64 = 0x4444_5555_6666
    for _ in 0..<12 { sketch.increment(even) }
    for _ in 0..<5 { sketch.increment(odd) }
    sketch.halve()
    #expect(sketch.frequency(even) == 6)
    #expect(sketch.frequency(odd) == 2)
  }

  @Test("after sampleSize recorded uses the sketch ages by itself")
  func agesBySample() {
    var sketch = sketch(entries: 512)
    var random = SplitMix64(seed: 3)
    let key = random.next()
    for _ in 0..<12 { sketch.increment(key) }
    #expect(sketch.sampleSize == 5_120)
    var aged = false
    for _ in 0..<sketch.sampleSize {
      let before = sketch.additions
      sketch.increment(random.next())
      if sketch.additions < before {
        aged = true
        break
      }
    }
    #expect(aged)
    #expect(sketch.additions < sketch.sampleSize / 2 + 1)
    #expect(sketch.frequency(key) < 12)
    #expect(sketch.frequency(key) >= 6)
  }

  @Test("growing the table raises the sample size and forgets the counts")
  func grows() {
    var sketch = sketch(entries: 16)
    let key: UInt64 = 0xDEAD_BEEF
    for _ in 0..<5 { sketch.increment(key) }
    sketch.ensureCapacity(10)  // smaller: no change
    #expect(sketch.frequency(key) == 5)
    sketch.ensureCapacity(4_096)
    #expect(sketch.words == 4_096)
    #expect(sketch.sampleSize == 40_960)
    #expect(sketch.frequency(key) == 0)
  }
}
