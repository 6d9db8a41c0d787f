import Foundation
import Synchronization

/// A key type of the scale benchmarks: made from a number, one key per number.
protocol ScaleKey: Hashable, Sendable {
  /// The key for number `n`.
  static func make(_ n: Int) -> Self
  /// The key type's name in benchmark names.
  static var label: String { get }
}

extension Int: ScaleKey {
  static func make(_ n: Int) -> Int { n }
  static var label: String { "Int" }
}

extension String: ScaleKey {
  /// `"user:<n>:profile"`: 15 to 19 bytes, so most keys are not small strings
  /// and hashing one reads memory of its own, as real string keys do.
  static func make(_ n: Int) -> String { "user:\(n):profile" }
  static var label: String { "String" }
}

/// How the keys of a get sequence are drawn from the stored keys.
enum ScaleAccess: String, CaseIterable, Sendable {
  /// Every stored key equally likely.
  case uniform
  /// Zipf with exponent 0.99 over ranks shuffled across the keys, so that the
  /// popular keys are not neighbours in memory.
  case zipf
}

/// The working sets of the scale benchmarks and their precomputed key sequences.
enum ScaleFixtures {
  /// Numbers of stored keys.
  static let sizes = [1_000, 100_000, 1_000_000]
  /// Keys per get sequence: a sample reads a run of them from a random start.
  static let sequenceLength = 1 << 20

  /// A short name for a size in benchmark names: 1k, 100k, 1M.
  static func label(_ size: Int) -> String {
    size >= 1_000_000 ? "\(size / 1_000_000)M" : "\(size / 1_000)k"
  }

  /// The keys for numbers `0..<count`.
  static func keys<Key: ScaleKey>(_ count: Int, as _: Key.Type = Key.self) -> [Key] {
    (0..<count).map { Key.make($0) }
  }

  /// `sequenceLength` key numbers below `size`, drawn as `access` says, with a
  /// fixed seed (the same sequence for every subject).
  static func numbers(size: Int, access: ScaleAccess) -> [Int32] {
    var random = ScaleRandom(seed: UInt64(size) &* 31 &+ (access == .zipf ? 7 : 3))
    switch access {
    case .uniform:
      return (0..<sequenceLength).map { _ in Int32(random.below(size)) }
    case .zipf:
      var cumulative = [Double](repeating: 0, count: size)
      var sum = 0.0
      for rank in 0..<size {
        sum += 1 / pow(Double(rank + 1), 0.99)
        cumulative[rank] = sum
      }
      var keyOfRank = (0..<size).map { Int32($0) }
      for index in stride(from: size - 1, to: 0, by: -1) {
        keyOfRank.swapAt(index, random.below(index + 1))
      }
      return (0..<sequenceLength).map { _ in
        let target = random.unit() * sum
        var low = 0
        var high = size - 1
        while low < high {
          let middle = (low + high) / 2
          if cumulative[middle] < target { low = middle + 1 } else { high = middle }
        }
        return keyOfRank[low]
      }
    }
  }

  /// The keys of the get sequence for `size` stored keys and `access`.
  static func sequence<Key: ScaleKey>(
    size: Int, access: ScaleAccess, keys: [Key]
  ) -> [Key] {
    numbers(size: size, access: access).map { keys[Int($0)] }
  }
}

/// SplitMix64: a small, fast generator with a fixed seed, so that every subject
/// reads the same key sequence.
struct ScaleRandom {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound`.
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

  /// A number in [0, 1).
  mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// Where the next sample of a benchmark that must not repeat keys starts.
final class ScaleCursor: Sendable {
  private let position = Atomic<Int>(0)

  /// Reserves `count` positions and returns the first.
  func take(_ count: Int) -> Int {
    position.wrappingAdd(count, ordering: .relaxed).oldValue
  }
}
