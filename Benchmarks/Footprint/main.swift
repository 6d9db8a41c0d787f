// Resident bytes per entry of a `String → Int` map, measured as the issue
// "The memory level at real sizes" asks: the process's resident set
// (`/proc/self/statm`) before and after storing the entries, the key strings made
// before the first reading.
//
//   swift run -c release --package-path Benchmarks Footprint <subject> [entries]
//
// <subject>: `dictionary` (a `[String: Int]`), `adaptive` or `lru` (a
// `MemoryCacheLevel` whose capacity holds every entry), or `adaptive-read` /
// `lru-read` (the level, after one get of every key); `dictionary-int`,
// `adaptive-int` and `lru-int` do the same with `Int` keys. Prints one line:
// `<subject> <entries> <bytes per entry>`. Run each subject in its own process.
// With `FOOTPRINT_TRIM=1`, a level's figure is taken after `malloc_trim(0)`, and a
// line before it says how many bytes per entry the allocator had kept.
//
// `probe-threads-adaptive` / `probe-threads-lru` [entries] time random gets of
// shared keys on one thread and on two (see `probeThreads`).
//
// `probe-set-adaptive` / `probe-set-lru` [entries] time sets of new keys into a
// level at 90 % of `entries` keys that holds them all (see `probeSets`).
//
// `probe-adaptive` / `probe-lru` / `probe-textbook` / `probe-dictionary` [entries]
// (`textbook`: the textbook exact LRU cache, `TextbookLRU`) instead store
// `entries` Int keys, then do 200,000 gets of uniformly random stored keys in
// `probeGets`, for a cache simulator to count what a hit touches:
//
//   valgrind --tool=callgrind --cache-sim=yes --toggle-collect='*probeGets*' \
//     Benchmarks/.build/release/Footprint probe-adaptive 100000
import Baselines
import Carlos
import Foundation

/// The process's resident bytes, from `/proc/self/statm`.
func residentBytes() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
    let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
  else { fatalError("cannot read /proc/self/statm") }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

let arguments = CommandLine.arguments
let subject = arguments.count > 1 ? arguments[1] : "dictionary"
let entries = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000
let keys = (0..<entries).map { "user:\($0):profile" }

/// Calls glibc's `malloc_trim(0)` (which Swift's Glibc module does not export).
func trimMalloc() {
  typealias Trim = @convention(c) (Int) -> Int32
  guard let symbol = dlsym(nil, "malloc_trim") else { fatalError("no malloc_trim") }
  _ = unsafeBitCast(symbol, to: Trim.self)(0)
}

/// Stores every key of `keys` in a level with `policy`, reading each once when
/// `reads`; returns the resident growth, with the level still alive.
func measureLevel<Key: Hashable & Sendable>(
  _ policy: EvictionPolicy, reads: Bool, keys: [Key]
) -> Int {
  let before = residentBytes()
  let level = MemoryCacheLevel<Key, Int>(capacity: entries, policy: policy)
  for (value, key) in keys.enumerated() { level.set(value, forKey: key) }
  if reads {
    for key in keys { _ = level.get(key).result }
  }
  var growth = residentBytes() - before
  precondition(level.count == entries, "the level dropped entries")
  if ProcessInfo.processInfo.environment["FOOTPRINT_TRIM"] == "1" {
    // What the allocator keeps of freed memory (the shards' smaller, earlier tables).
    trimMalloc()
    let trimmed = residentBytes() - before
    print("trimmed", String(format: "%.1f", Double(growth - trimmed) / Double(entries)))
    growth = trimmed
  }
  return growth
}

/// Does a get of every key of `keys` (the only code the probe's simulator counts).
@inline(never)
func probeGets(_ get: (Int) -> Int?, _ keys: [Int]) -> Int {
  var found = 0
  for key in keys where get(key) != nil { found &+= 1 }
  return found
}

/// Stores `entries` Int keys in a fresh subject and runs `probeGets` on them;
/// with `PROBE_TIMED=1` in the environment, prints the best of 5 timed passes of
/// 1,000,000 gets instead (ns per get; a quick A/B check, not a benchmark).
func probe(_ kind: String) {
  var random = SystemRandomNumberGenerator()
  let timed = ProcessInfo.processInfo.environment["PROBE_TIMED"] == "1"
  let sequence = (0..<(timed ? 1_000_000 : 200_000)).map { _ in
    Int.random(in: 0..<entries, using: &random)
  }
  let get: (Int) -> Int?
  if kind == "dictionary" {
    var dictionary: [Int: Int] = [:]
    for key in 0..<entries { dictionary[key] = key }
    let frozen = dictionary
    get = { frozen[$0] }
  } else if kind == "textbook" {
    let cache = TextbookLRU<Int>(capacity: entries)
    for key in 0..<entries { cache.set(key, key) }
    get = { cache.get($0) }
  } else {
    let level = MemoryCacheLevel<Int, Int>(
      capacity: entries, policy: kind == "lru" ? .lru : .adaptiveTinyLFU)
    for key in 0..<entries { level.set(key, forKey: key) }
    get = { level.get($0).result?.value }
  }
  guard timed else {
    print("probe", kind, entries, probeGets(get, sequence))
    return
  }
  var best = Double.infinity
  for _ in 0..<5 {
    let start = DispatchTime.now().uptimeNanoseconds
    _ = probeGets(get, sequence)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
    best = min(best, elapsed / Double(sequence.count))
  }
  print("probe", kind, entries, String(format: "%.1f ns per get", best))
}

/// `probe-set-<policy>`: a level with capacity for 90 % of `entries` Int keys,
/// filled with all of them, then the best of 3 timed passes of 300,000 sets of new
/// keys (every set evicts), in ns per set.
func probeSets(_ kind: String) {
  let capacity = entries * 9 / 10
  let level = MemoryCacheLevel<Int, Int>(
    capacity: capacity, policy: kind == "lru" ? .lru : .adaptiveTinyLFU)
  for key in 0..<entries { level.set(key, forKey: key) }
  var next = entries
  var best = Double.infinity
  for _ in 0..<3 {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<300_000 {
      level.set(next, forKey: next)
      next += 1
    }
    best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 300_000)
  }
  print("probe-set", kind, entries, String(format: "%.1f ns per set", best))
}

/// `probe-threads-<policy>` [entries]: the scaling of random gets of shared `String`
/// keys (`keys`) from one thread to two, as the `memory.scale.concurrent` rows measure
/// it, in a few seconds: the best of 5 passes of 1,000,000 gets per thread each way;
/// prints ns per get on one thread, on two, and two threads' throughput over one's.
func probeThreads(_ kind: String) {
  let level = MemoryCacheLevel<String, Int>(
    capacity: entries, policy: kind == "lru" ? .lru : .adaptiveTinyLFU)
  for (value, key) in keys.enumerated() { level.set(value, forKey: key) }
  var random = SystemRandomNumberGenerator()
  let sequence = (0..<(1 << 20)).map { _ in keys[Int.random(in: 0..<entries, using: &random)] }
  let gets = 1_000_000
  func pass(_ threads: Int) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      let offset = thread * (sequence.count / 2)
      var found = 0
      for i in 0..<gets where level.get(sequence[(offset + i) & (sequence.count - 1)]).result != nil
      {
        found &+= 1
      }
      precondition(found == gets)
    }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(gets)
  }
  let one = (0..<5).map { _ in pass(1) }.min()!
  let two = (0..<5).map { _ in pass(2) }.min()!
  print(
    "probe-threads", kind, entries,
    String(
      format: "1 thread %.1f ns per get, 2 threads %.1f, scaling %.2fx", one, two, 2 * one / two))
}

if subject.hasPrefix("probe-threads-") {
  probeThreads(String(subject.dropFirst(14)))
  exit(0)
}

/// Sets `keys` (200,000 in all, round-robin) into `level` (the only code the
/// expiry probe's simulator counts).
@inline(never)
func probeExpirySets(_ level: MemoryCacheLevel<String, Data>, _ keys: [String], _ values: [Data]) {
  for i in 0..<200_000 { _ = level.set(values[i & 1023], forKey: keys[i & 1023]).result }
}

/// `probe-expiry-set` / `probe-plain-set`: the `memory.expiry.set` rows' work (1,024
/// `String` keys, `Data` values, replaced over and over, with expire-after-write
/// or without), for a cache simulator:
///
///   valgrind --tool=callgrind --toggle-collect='*probeExpirySets*' \
///     Benchmarks/.build/release/Footprint probe-expiry-set
if subject == "probe-expiry-set" || subject == "probe-plain-set" {
  let level = MemoryCacheLevel<String, Data>(
    capacity: 64 << 20,
    expiration: subject == "probe-expiry-set" ? .afterWrite(.seconds(3_600)) : .never)
  let names = (0..<1024).map { "key-\($0)" }
  let values = (0..<1024).map { index in
    Data((0..<4_096).map { UInt8(truncatingIfNeeded: $0 &+ index) })
  }
  for i in 0..<1024 { level.set(values[i], forKey: names[i]) }
  probeExpirySets(level, names, values)
  print(subject, level.count)
  exit(0)
}

if subject.hasPrefix("probe-set-") {
  probeSets(String(subject.dropFirst(10)))
  exit(0)
}

if subject.hasPrefix("probe-") {
  probe(String(subject.dropFirst(6)))
  exit(0)
}

let growth: Int
switch subject {
case "dictionary":
  let before = residentBytes()
  var dictionary: [String: Int] = [:]
  for (value, key) in keys.enumerated() { dictionary[key] = value }
  growth = residentBytes() - before
  precondition(dictionary.count == entries)
case "dictionary-int":
  let before = residentBytes()
  var dictionary: [Int: Int] = [:]
  for key in 0..<entries { dictionary[key] = key }
  growth = residentBytes() - before
  precondition(dictionary.count == entries)
case "adaptive": growth = measureLevel(.adaptiveTinyLFU, reads: false, keys: keys)
case "lru": growth = measureLevel(.lru, reads: false, keys: keys)
case "adaptive-read": growth = measureLevel(.adaptiveTinyLFU, reads: true, keys: keys)
case "lru-read": growth = measureLevel(.lru, reads: true, keys: keys)
case "adaptive-int": growth = measureLevel(.adaptiveTinyLFU, reads: false, keys: Array(0..<entries))
case "lru-int": growth = measureLevel(.lru, reads: false, keys: Array(0..<entries))
default: fatalError("unknown subject \(subject)")
}
print(subject, entries, String(format: "%.1f", Double(growth) / Double(entries)))
