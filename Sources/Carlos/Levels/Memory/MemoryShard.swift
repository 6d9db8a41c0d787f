/// A key with its hash computed once: shards are picked by the hash, and the
/// shard's dictionary hashes only this integer instead of the whole key again.
@usableFromInline
struct HashedKey<Key: Hashable & Sendable>: Hashable, Sendable {
  @usableFromInline let key: Key
  @usableFromInline let hash: Int

  @inlinable
  init(_ key: Key, hash: Int) {
    self.key = key
    self.hash = hash
  }

  @inlinable
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.hash == rhs.hash && lhs.key == rhs.key
  }

  @inlinable
  func hash(into hasher: inout Hasher) {
    hasher.combine(hash)
  }

  /// The key's own hash value, already randomized per process by `Hasher`,
  /// mixed with the dictionary's seed: hashing it again would only cost time.
  @inlinable
  func _rawHashValue(seed: Int) -> Int {
    hash ^ seed
  }
}

/// What a shard keeps for one key. A reference, so a read looks at its fields in
/// place; the policy table keeps one per slot and reuses it when the slot is reused.
///
/// `@unchecked Sendable`: every field is read and written only under the lock
/// of the shard that holds the entry (or by the policy table, under its own lock,
/// while no shard holds the entry). That lock is also why the fields skip the
/// run-time exclusivity checks: two accesses can never overlap.
@usableFromInline
final class ShardEntry<Value: Sendable>: @unchecked Sendable {
  /// A stored value, as stored or already wrapped for readers.
  @usableFromInline
  enum Stored: Sendable {
    case value(Value)
    case future(Future<Value>)
    /// The entry left its shard; it keeps nothing alive while its slot waits for reuse.
    case empty
  }

  /// The value; its first read wraps it in a completed future that every later read shares.
  @usableFromInline @exclusivity(unchecked) var stored: Stored
  /// The entry's slot in the eviction policy.
  @usableFromInline let slot: Int
  /// The slot's generation when the entry took it (tells reused slots apart).
  @usableFromInline @exclusivity(unchecked) var generation: UInt32 = 0
  /// When the value expires (nanoseconds since 1970), or ``TimerWheel/none``.
  @usableFromInline @exclusivity(unchecked) var deadline: Int64 = TimerWheel.none
  /// How long a read extends the value's life (after-access expiry), or 0.
  @usableFromInline @exclusivity(unchecked) var slide: Int64 = 0
  /// When the value was stored.
  @usableFromInline @exclusivity(unchecked) var storedAt: Int64 = 0

  @inlinable
  init(value: Value, slot: Int) {
    self.stored = .value(value)
    self.slot = slot
  }

  /// Gives the entry a new value and times.
  @inlinable
  func fill(value: Value, generation: UInt32, deadline: Int64, slide: Int64, storedAt: Int64) {
    self.stored = .value(value)
    self.generation = generation
    self.deadline = deadline
    self.slide = slide
    self.storedAt = storedAt
  }
}

/// One part of a ``MemoryCacheLevel``'s index: the entries of the keys whose
/// hash falls in it, behind a lock of its own, so readers of different keys
/// rarely meet.
@usableFromInline
final class MemoryShard<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  @usableFromInline let entries = Lock<[HashedKey<Key>: ShardEntry<Value>]>([:])
  /// Keeps shards on separate cache lines.
  let padding: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)

  @usableFromInline init() {}
}

/// What a read found in a shard.
@usableFromInline
enum ShardRead<Value: Sendable>: Sendable {
  /// The value, the note the read leaves for the policy, and the entry's times.
  case hit(Future<Value>, note: Int, storedAt: Int64, deadline: Int64)
  /// No value, or an expired one (`expiredSlot` is then its slot).
  case miss(expiredSlot: Int?)
}
