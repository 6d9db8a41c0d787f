import Benchmark
import Carlos
import Dispatch
import Foundation
import Synchronization

/// A dictionary split into 64 shards, each behind its own mutex and on cache lines
/// of its own: the simplest memory cache whose reads scale with cores. The shards
/// live in memory the object owns, so reaching one touches no reference count.
final class ShardedMutexDictionary: @unchecked Sendable {
  // @unchecked: each shard is reached only through its own mutex.
  /// One shard, padded past a cache line.
  struct Shard: ~Copyable {
    let storage = Mutex<[String: Data]>([:])
    let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
  }

  private let shards = UnsafeMutablePointer<Shard>.allocate(capacity: 64)

  init() {
    for index in 0..<64 { (shards + index).initialize(to: Shard()) }
  }

  deinit {
    shards.deinitialize(count: 64)
    shards.deallocate()
  }

  func get(_ key: String) -> Data? { shards[key.hashValue & 63].storage.withLock { $0[key] } }

  func set(_ value: Data, forKey key: String) {
    shards[key.hashValue & 63].storage.withLock { $0[key] = value }
  }
}

/// Not a cache: one atomic counter per key, each on a pair of cache lines of its
/// own (processors fetch lines in pairs), and a "get" adds 1 to the key's counter.
/// It shows what the machine allows when every read writes one line per key, as
/// returning a reference-counted value does.
final class KeyCounters: @unchecked Sendable {
  // @unchecked: every counter is an atomic.
  /// Counters from one key's to the next: 128 bytes.
  private static let spacing = 16
  private let counters = UnsafeMutablePointer<Atomic<Int>>.allocate(
    capacity: Fixtures.keyCount * spacing)

  init() {
    for index in 0..<(Fixtures.keyCount * Self.spacing) {
      (counters + index).initialize(to: Atomic(0))
    }
  }

  deinit { counters.deallocate() }

  func touch(_ index: Int) {
    counters[(index & (Fixtures.keyCount - 1)) * Self.spacing].wrappingAdd(1, ordering: .relaxed)
  }
}

/// A cache under test: how to get and set the fixture key and value of one index.
struct ConcurrentSubject: Sendable {
  let get: @Sendable (Int) -> Void
  let set: @Sendable (Int) -> Void

  static func memoryLevel(_ policy: EvictionPolicy) -> ConcurrentSubject {
    let level = MemoryCacheLevel<String, Data>(capacity: 64 << 20, policy: policy)
    for i in 0..<Fixtures.keyCount { level.set(Fixtures.value(i), forKey: Fixtures.key(i)) }
    return ConcurrentSubject(
      get: { level.get(Fixtures.key($0)).onSuccess { blackHole($0) } },
      set: { blackHole(level.set(Fixtures.value($0), forKey: Fixtures.key($0))) })
  }

  static var mutexDictionary: ConcurrentSubject {
    let cache = MutexDictionary()
    for i in 0..<Fixtures.keyCount { cache.set(Fixtures.value(i), forKey: Fixtures.key(i)) }
    return ConcurrentSubject(
      get: { blackHole(cache.get(Fixtures.key($0))) },
      set: { cache.set(Fixtures.value($0), forKey: Fixtures.key($0)) })
  }

  static var keyCounters: ConcurrentSubject {
    let counters = KeyCounters()
    return ConcurrentSubject(get: { counters.touch($0) }, set: { counters.touch($0) })
  }

  static var shardedDictionary: ConcurrentSubject {
    let cache = ShardedMutexDictionary()
    for i in 0..<Fixtures.keyCount { cache.set(Fixtures.value(i), forKey: Fixtures.key(i)) }
    return ConcurrentSubject(
      get: { blackHole(cache.get(Fixtures.key($0))) },
      set: { cache.set(Fixtures.value($0), forKey: Fixtures.key($0)) })
  }
}

/// Operations per thread in one sample.
let concurrentOperations = 65_536

/// Which keys each thread uses.
enum KeySharing {
  /// Every thread goes through all 1,024 keys (starting 509 keys apart).
  case shared
  /// Thread `t` of `n` uses only the keys `k` with `k % n == t`.
  case disjoint
}

/// Runs `concurrentOperations` operations on each of `threads` threads at once:
/// every tenth a set when `setsEvery` is 10 (every one when it is 1), gets otherwise.
func runConcurrently(
  _ subject: ConcurrentSubject, threads: Int, setsEvery: Int = 0, keys: KeySharing = .shared
) {
  DispatchQueue.concurrentPerform(iterations: threads) { thread in
    let offset = thread &* 509
    for i in 0..<concurrentOperations {
      let index = keys == .shared ? i &+ offset : (i &* threads &+ thread)
      if setsEvery > 0, i % setsEvery == 0 {
        subject.set(index)
      } else {
        subject.get(index)
      }
    }
  }
}

/// Get hits (and a 90 % get / 10 % set mix) on 1,024 hot keys with one and two
/// threads: the figure is the time of one sample, in which each thread does
/// 65,536 operations, so two threads scale perfectly when their time equals one
/// thread's. In `memory.concurrent.disjoint` each thread reads keys no other
/// thread reads, so no value's reference count is written by two threads; in
/// `memory.concurrent.updates` every operation replaces a stored value by one of
/// the same cost.
func concurrentMemoryBenchmarks() {
  let configuration = Benchmark.Configuration(
    metrics: [.wallClock],
    timeUnits: .microseconds,
    warmupIterations: 3,
    scalingFactor: .one,
    maxDuration: .seconds(3),
    maxIterations: 200
  )
  let subjects: [(String, @Sendable () -> ConcurrentSubject)] = [
    ("baseline Dictionary+Mutex", { .mutexDictionary }),
    ("baseline sharded Dictionary+Mutex", { .shardedDictionary }),
    ("baseline one atomic add per read on the key's own line", { .keyCounters }),
    ("Carlos MemoryCacheLevel adaptive", { .memoryLevel(.adaptiveTinyLFU) }),
    ("Carlos MemoryCacheLevel lru", { .memoryLevel(.lru) }),
  ]
  for (name, make) in subjects {
    for threads in [1, 2] {
      let label = threads == 1 ? "1 thread" : "2 threads"
      Benchmark("memory.concurrent · \(name), \(label), get hits", configuration: configuration) {
        _, subject in
        runConcurrently(subject, threads: threads)
      } setup: {
        make()
      }
      Benchmark(
        "memory.concurrent.disjoint · \(name), \(label), get hits on keys of its own",
        configuration: configuration
      ) {
        _, subject in
        runConcurrently(subject, threads: threads, keys: .disjoint)
      } setup: {
        make()
      }
      Benchmark(
        "memory.concurrent.mix · \(name), \(label), 90% gets 10% sets", configuration: configuration
      ) {
        _, subject in
        runConcurrently(subject, threads: threads, setsEvery: 10)
      } setup: {
        make()
      }
      Benchmark(
        "memory.concurrent.updates · \(name), \(label), sets of stored keys",
        configuration: configuration
      ) {
        _, subject in
        runConcurrently(subject, threads: threads, setsEvery: 1)
      } setup: {
        make()
      }
    }
  }
}
