import Baselines
import Benchmark
import Carlos
import Synchronization

/// A cache of `Int` values under test in the scale benchmarks.
protocol ScaleCache<Key>: AnyObject, Sendable {
  associatedtype Key: ScaleKey
  /// Reads `key` and hands the value (or its absence) to `blackHole`.
  func read(_ key: Key)
  /// Stores `value` under `key`.
  func write(_ value: Int, _ key: Key)
  /// Removes `key` (for the bounded dictionaries, which drop their oldest key themselves).
  func drop(_ key: Key)
}

/// `MemoryCacheLevel`, read as users read it: a future and its `onSuccess`.
final class ScaleLevel<Key: ScaleKey>: ScaleCache {
  let level: MemoryCacheLevel<Key, Int>

  init(capacity: Int, policy: EvictionPolicy) {
    level = MemoryCacheLevel(capacity: capacity, policy: policy)
  }

  func read(_ key: Key) { level.get(key).onSuccess { blackHole($0) } }
  func write(_ value: Int, _ key: Key) { blackHole(level.set(value, forKey: key)) }
  func drop(_ key: Key) {}
}

/// The simplest thread-safe map: a dictionary behind a mutex.
final class ScaleMutexDictionary<Key: ScaleKey>: ScaleCache {
  private let storage = Mutex<[Key: Int]>([:])

  func read(_ key: Key) { blackHole(storage.withLock { $0[key] }) }
  func write(_ value: Int, _ key: Key) { storage.withLock { $0[key] = value } }
  func drop(_ key: Key) { storage.withLock { _ = $0.removeValue(forKey: key) } }
}

/// A dictionary split into 64 shards, each behind its own mutex on cache lines of
/// its own (as `ShardedMutexDictionary`, with `Int` values and any key).
final class ScaleShardedDictionary<Key: ScaleKey>: ScaleCache, @unchecked Sendable {
  // @unchecked: each shard's dictionary is reached only through the shard's mutex.
  struct Shard: ~Copyable {
    let storage = Mutex<[Key: Int]>([:])
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

  func read(_ key: Key) { blackHole(shards[key.hashValue & 63].storage.withLock { $0[key] }) }
  func write(_ value: Int, _ key: Key) {
    shards[key.hashValue & 63].storage.withLock { $0[key] = value }
  }
  func drop(_ key: Key) {
    shards[key.hashValue & 63].storage.withLock { _ = $0.removeValue(forKey: key) }
  }
}

/// The nearest baseline to the `.lru` level: the textbook exact LRU cache
/// (`TextbookLRU`, shared with the `Footprint` probes).
final class ScaleLRUDictionary<Key: ScaleKey>: ScaleCache {
  private let cache: TextbookLRU<Key>

  init(capacity: Int) { cache = TextbookLRU(capacity: capacity) }

  func read(_ key: Key) { blackHole(cache.get(key)) }
  func write(_ value: Int, _ key: Key) { cache.set(value, key) }
  func drop(_ key: Key) {}
}

/// Calls `body` once per subject of the scale benchmarks (baselines first), with
/// its name, whether it bounds itself (the levels and the LRU dictionary; the
/// benchmarks bound the plain dictionaries) and how to make an empty one for a capacity. A visitor rather than
/// an array, so that each subject's loops are specialised for its concrete type.
protocol ScaleSubjectVisitor {
  func visit<Cache: ScaleCache>(
    _ name: String, boundsItself: Bool, make: @escaping @Sendable (Int) -> Cache)
}

extension ScaleSubjectVisitor {
  /// Visits the five subjects with keys of type `Key`.
  func visitAll<Key: ScaleKey>(_: Key.Type) {
    visit("baseline Dictionary+Mutex", boundsItself: false) { _ in ScaleMutexDictionary<Key>() }
    visit("baseline sharded Dictionary+Mutex", boundsItself: false) { _ in
      ScaleShardedDictionary<Key>()
    }
    visit("baseline LRU Dictionary+Mutex", boundsItself: true) {
      ScaleLRUDictionary<Key>(capacity: $0)
    }
    visit("Carlos MemoryCacheLevel adaptive", boundsItself: true) {
      ScaleLevel<Key>(capacity: $0, policy: .adaptiveTinyLFU)
    }
    visit("Carlos MemoryCacheLevel lru", boundsItself: true) {
      ScaleLevel<Key>(capacity: $0, policy: .lru)
    }
  }
}
