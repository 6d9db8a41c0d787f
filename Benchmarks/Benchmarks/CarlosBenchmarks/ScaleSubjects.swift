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

/// The nearest baseline to the `.lru` level: the textbook exact LRU cache, a
/// dictionary from key to node number and a doubly linked list of nodes in
/// arrays, behind one mutex. A hit moves its node to the front; a set of a new key
/// at the capacity reuses the back node (the least recently used key, dropped).
final class ScaleLRUDictionary<Key: ScaleKey>: ScaleCache {
  struct List {
    let capacity: Int
    var index: [Key: Int32] = [:]
    var keys: [Key] = []
    var values: [Int] = []
    var previous: [Int32] = []
    var next: [Int32] = []
    /// The most and the least recently used nodes (-1: none).
    var front: Int32 = -1
    var back: Int32 = -1

    mutating func unlink(_ node: Int32) {
      let (before, after) = (previous[Int(node)], next[Int(node)])
      if before >= 0 { next[Int(before)] = after } else { front = after }
      if after >= 0 { previous[Int(after)] = before } else { back = before }
    }

    mutating func pushFront(_ node: Int32) {
      previous[Int(node)] = -1
      next[Int(node)] = front
      if front >= 0 { previous[Int(front)] = node } else { back = node }
      front = node
    }

    mutating func get(_ key: Key) -> Int? {
      guard let node = index[key] else { return nil }
      if node != front {
        unlink(node)
        pushFront(node)
      }
      return values[Int(node)]
    }

    mutating func set(_ value: Int, _ key: Key) {
      if let node = index[key] {
        values[Int(node)] = value
        unlink(node)
        pushFront(node)
        return
      }
      let node: Int32
      if keys.count < capacity {
        node = Int32(keys.count)
        keys.append(key)
        values.append(value)
        previous.append(-1)
        next.append(-1)
      } else {
        node = back
        unlink(node)
        index.removeValue(forKey: keys[Int(node)])
        keys[Int(node)] = key
        values[Int(node)] = value
      }
      index[key] = node
      pushFront(node)
    }
  }

  private let list: Mutex<List>

  init(capacity: Int) {
    list = Mutex(List(capacity: Swift.max(1, capacity)))
  }

  func read(_ key: Key) { blackHole(list.withLock { $0.get(key) }) }
  func write(_ value: Int, _ key: Key) { list.withLock { $0.set(value, key) } }
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
