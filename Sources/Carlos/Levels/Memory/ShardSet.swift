import Foundation
import Synchronization

/// The shards of a ``MemoryCacheLevel``'s index, each behind a lock of its own and
/// padded so that no two shards' locks share a cache line: a key's hash picks its
/// shard, so threads reading different keys rarely wait for each other.
///
/// The shards live in memory the set owns (not in an array), so that reaching one
/// touches no reference count. One bit per shard says that its reads may have left
/// notes for the policy, so a drain visits only those shards.
@usableFromInline
struct ShardSet<Key: Hashable & Sendable, Value: Sendable>: ~Copyable, @unchecked Sendable {
  // @unchecked: each shard is only reached through `withShard`, which takes the
  // shard's own lock; the dirty bits are atomics; the pointers are written only
  // by `init` and `deinit`.

  /// One shard and its lock, padded to more than a cache line.
  @usableFromInline
  struct Padded: ~Copyable {
    @usableFromInline let lock: Lock<EntryShard<Key, Value>>
    let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

    @inlinable
    init() { lock = Lock(EntryShard()) }
  }

  @usableFromInline let base: UnsafeMutablePointer<Padded>
  /// The shards that may hold read notes, 64 to a word.
  @usableFromInline let dirty: UnsafeMutablePointer<Atomic<UInt64>>
  /// The number of shards less one (the number is a power of two).
  @usableFromInline let mask: Int

  /// Creates `count` empty shards (`count` is rounded up to a power of two).
  @inlinable
  init(count: Int) {
    var shards = 1
    while shards < count { shards <<= 1 }
    base = .allocate(capacity: shards)
    for index in 0..<shards { (base + index).initialize(to: Padded()) }
    mask = shards - 1
    let words = (shards + 63) / 64
    dirty = .allocate(capacity: words)
    for word in 0..<words { (dirty + word).initialize(to: Atomic(0)) }
  }

  deinit {
    base.deinitialize(count: mask + 1)
    base.deallocate()
    dirty.deallocate()
  }

  /// The number of words of dirty bits.
  @inlinable
  var dirtyWords: Int { (mask + 64) >> 6 }

  /// Marks shard `index` as holding read notes.
  @inlinable
  func markDirty(_ index: Int) {
    dirty[index >> 6].bitwiseOr(1 << UInt64(index & 63), ordering: .relaxed)
  }

  /// Calls `body` with the index of every shard marked as holding read notes,
  /// clearing the marks first.
  @inlinable
  func forEachDirty(_ body: (Int) -> Void) {
    for word in 0..<dirtyWords {
      guard dirty[word].load(ordering: .relaxed) != 0 else { continue }
      var bits = dirty[word].exchange(0, ordering: .acquiring)
      while bits != 0 {
        body(word << 6 | bits.trailingZeroBitCount)
        bits &= bits &- 1
      }
    }
  }

  /// The number of shards.
  @inlinable
  var count: Int { mask + 1 }

  /// A shard count for this machine: enough that threads on every core seldom meet.
  static var recommendedCount: Int {
    Swift.min(256, Swift.max(16, 8 * ProcessInfo.processInfo.activeProcessorCount))
  }

  /// Runs `body` on the shard that holds keys with hash `hash`, under its lock.
  @inlinable
  func withShard<Result>(
    hash: Int, _ body: (inout EntryShard<Key, Value>) -> Result
  ) -> Result {
    base[hash & mask].lock.withLock { (shard: inout EntryShard<Key, Value>) -> Result in
      body(&shard)
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
