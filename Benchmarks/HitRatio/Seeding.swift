import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What makes a replay reproducible: a fixed Swift hash seed for the whole
/// process, and a seed that renames the trace's keys.
///
/// The policies never look at a key's value, only at its hash (the frequency
/// sketch's counters, the ghosts' slots, the reuse indicator's control group)
/// and at equality. Renaming every key by a bijection therefore changes nothing
/// for LRU and OPT, and for the other policies it is the same as drawing a new
/// hash seed. The random tie-break of admission is seeded from the process's
/// hash seed too (see `SplitMix64`), so one `--seed` fixes every source of
/// randomness.
enum Seeding {
  /// The environment variable that makes Swift's hash seed fixed.
  static let deterministicHashing = "SWIFT_DETERMINISTIC_HASHING"

  /// Makes sure Swift's hashing is deterministic in this process: when the
  /// variable is not set, sets it and runs this executable again with the same
  /// arguments (Swift reads it once, at start). Returns only when it is set.
  static func requireDeterministicHashing() {
    if ProcessInfo.processInfo.environment[deterministicHashing] == "1" { return }
    setenv(deterministicHashing, "1", 1)
    #if os(Linux)
      let executable = "/proc/self/exe"
    #else
      let executable = CommandLine.arguments[0]
    #endif
    var arguments = CommandLine.arguments.map { strdup($0) }
    arguments.append(nil)
    execv(executable, &arguments)
    let reason = String(cString: strerror(errno))
    FileHandle.standardError.write(
      Data("HitRatio: could not restart with \(deterministicHashing)=1: \(reason)\n".utf8))
    exit(70)
  }

  /// `key` renamed under `seed`: seed 0 keeps the keys as they are; any other
  /// seed applies a bijection of the 64-bit keys (an offset, then the
  /// SplitMix64 finalizer, both invertible), so distinct keys stay distinct.
  static func rename(_ key: Int64, seed: UInt64) -> Int64 {
    if seed == 0 { return key }
    var x = UInt64(bitPattern: key) &+ seed &* 0x9E37_79B9_7F4A_7C15
    x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
    x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int64(bitPattern: x ^ (x >> 31))
  }
}
