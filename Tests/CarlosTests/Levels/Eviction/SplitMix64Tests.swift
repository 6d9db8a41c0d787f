import Testing

@testable import Carlos

@Suite("SplitMix64")
struct SplitMix64Tests {
  @Test("a seed fixes the sequence")
  func seeded() {
    var first = SplitMix64(seed: 42)
    var second = SplitMix64(seed: 42)
    var other = SplitMix64(seed: 43)
    let sequence = (0..<4).map { _ in first.next() }
    #expect(sequence == (0..<4).map { _ in second.next() })
    #expect(sequence != (0..<4).map { _ in other.next() })
  }

  @Test("the default seed follows the process's hash seed, so one process draws one sequence")
  func defaultSeedFollowsHashing() {
    var first = SplitMix64()
    var second = SplitMix64()
    var hasher = Hasher()
    hasher.combine(0x5EED_CA21_05E7 as UInt64)
    var expected = SplitMix64(seed: UInt64(bitPattern: Int64(hasher.finalize())))
    let value = first.next()
    #expect(value == second.next())
    #expect(value == expected.next())
  }
}
