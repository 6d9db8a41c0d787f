import Foundation

/// The shards of a ``MemoryCacheLevel``'s index, each behind a lock of its own and
/// padded so that no two shards' locks share a cache line: a key's hash picks its
/// shard, so threads reading different keys rarely wait for each other.
///
/// The shards live in memory the set owns (not in an array), so that reaching one
/// touches no reference count. The set also holds the level's records (the
/// entries the shards' slots name), and deinitializes the entries still
/// indexed when it goes.
@usableFromInline
struct ShardSet<Key: Hashable & Sendable, Value: Sendable>: ~Copyable, @unchecked Sendable {
  // @unchecked: each shard is only reached through `withShard`, which takes the
  // shard's own lock; the pointer is written only by `init` and `deinit`.

  /// One shard and its lock, padded to more than a cache line.
  @usableFromInline
  struct Padded: ~Copyable {
    @usableFromInline let lock: Lock<EntryShard<Key, Value>>
    let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

    @inlinable
    init() { lock = Lock(EntryShard()) }
  }

  @usableFromInline let base: UnsafeMutablePointer<Padded>
  /// The level's records, which the shards index by slot.
  @usableFromInline let records: EntryRecords<Key, Value>
  /// The number of shards less one (the number is a power of two).
  @usableFromInline let mask: Int

  /// Creates `count` empty shards (`count` is rounded up to a power of two) for a
  /// level of `capacity`.
  @inlinable
  init(count: Int, capacity: Int) {
    records = EntryRecords(capacity: capacity)
    var shards = 1
    while shards < count { shards <<= 1 }
    base = .allocate(capacity: shards)
    for index in 0..<shards { (base + index).initialize(to: Padded()) }
    mask = shards - 1
  }

  deinit {
    for index in 0...mask {
      base[index].lock.withLock { [records] in $0.removeAll(in: records) }
    }
    records.deallocate()
    base.deinitialize(count: mask + 1)
    base.deallocate()
  }

  /// The number of shards.
  @inlinable
  var count: Int { mask + 1 }

  /// A shard count for a level of `capacity` on this machine: sixteen per core (at
  /// least 64, at most 256), so that threads seldom want one shard at the same
  /// moment, but no more than one per eight units of capacity, so that small
  /// levels stay small.
  static func count(forCapacity capacity: Int) -> Int {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let perMachine = Swift.min(256, Swift.max(64, 16 * cores))
    return Swift.max(1, Swift.min(perMachine, capacity / 8))
  }

  /// Runs `body` on the shard that holds keys with hash `hash`, under its lock.
  @inlinable
  func withShard<Result>(
    hash: Int, _ body: (inout EntryShard<Key, Value>) -> Result
  ) -> Result {
    base[hash & mask].lock.withLockSpinning { (shard: inout EntryShard<Key, Value>) -> Result in
      body(&shard)
    }
  }

  /// Runs `body` with every shard's lock held (taken in order), after handing each
  /// shard to `visit` (under its lock, which stays held).
  @inlinable
  func withEveryShard(
    visiting visit: (borrowing EntryShard<Key, Value>) -> Void, _ body: () -> Void
  ) {
    lock(from: 0, visit, body)
  }

  @inlinable
  func lock(
    from index: Int, _ visit: (borrowing EntryShard<Key, Value>) -> Void, _ body: () -> Void
  ) {
    guard index <= mask else { return body() }
    base[index].lock.withLock { (shard: inout EntryShard<Key, Value>) in
      visit(shard)
      lock(from: index &+ 1, visit, body)
    }
  }

  /// Runs `body` on shard number `index`, under its lock.
  @inlinable
  func withShard<Result>(
    at index: Int, _ body: (inout EntryShard<Key, Value>) -> Result
  ) -> Result {
    base[index].lock.withLock { (shard: inout EntryShard<Key, Value>) -> Result in
      body(&shard)
    }
  }
}
