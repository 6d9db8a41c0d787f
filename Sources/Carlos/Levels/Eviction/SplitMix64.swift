/// A small, fast, seedable pseudo-random generator (SplitMix64).
///
/// Not cryptographic. The eviction policy uses it to break ties unpredictably;
/// tests use it to make reproducible random workloads.
///
/// The default generator is seeded from Swift's per-process hash seed, the same
/// secret that protects `Dictionary` keys: it differs from process to process,
/// yet is fixed when `SWIFT_DETERMINISTIC_HASHING` is set, so a replay of a
/// trace under a fixed hash seed gives the same result every time.
@usableFromInline
struct SplitMix64: RandomNumberGenerator, Sendable {
  @usableFromInline var state: UInt64

  /// Creates a generator whose sequence is fully determined by `seed`.
  @inlinable
  init(seed: UInt64) {
    state = seed
  }

  /// Creates a generator seeded from the process's hash seed.
  @inlinable
  init() {
    var hasher = Hasher()
    hasher.combine(0x5EED_CA21_05E7 as UInt64)
    state = UInt64(bitPattern: Int64(hasher.finalize()))
  }

  @inlinable
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
