import Synchronization

/// One shard of a ``MemoryCacheLevel``'s index: which slots (``EntryRecords``)
/// hold the keys whose hashes select this shard, in an open-addressing table of
/// 8-byte buckets (linear probing, deletion by shifting back) searched with the
/// hash the level computed once per operation.
///
/// A bucket holds the upper 32 bits of the key's hash (its *tag*, which also picks
/// the bucket a probe starts from) and the slot, so a probe compares keys only in
/// records whose tag matches. The shard also counts its hits and misses. Not
/// thread-safe by itself: every shard has its own lock, under which the entries
/// of its slots are read and written.
@usableFromInline
struct EntryShard<Key: Hashable & Sendable, Value: Sendable>: ~Copyable, @unchecked Sendable {
  // @unchecked: the buckets belong to the shard alone, and the shard is reached
  // only under its lock (see ``ShardSet``).
  @usableFromInline typealias Records = EntryRecords<Key, Value>

  /// What a read learned besides the value.
  @usableFromInline
  struct ReadReport: Sendable {
    /// Whether the reader wants `storedAt` and `deadline`.
    @usableFromInline var wantsTimes = false
    /// When the value was stored and when it expires (after a hit, when `wantsTimes`).
    @usableFromInline var storedAt: Int64 = 0
    @usableFromInline var deadline: Int64 = 0
    /// The ticket of an entry found expired, and the time it was found so; 0 otherwise.
    @usableFromInline var expiredTicket: UInt64 = 0
    @usableFromInline var expiredAt: Int64 = 0
    /// The ticket of the entry a hit found; 0 otherwise.
    @usableFromInline var ticket: UInt64 = 0

    @inlinable
    init() {}
  }

  /// `tag << 32 | (slot + 1)` per bucket, or 0 for an empty bucket.
  @usableFromInline var buckets: UnsafeMutablePointer<UInt64>
  /// The number of buckets less one (the number is a power of two).
  @usableFromInline var mask: Int
  /// The number of entries.
  @usableFromInline var count = 0
  /// The hits and misses of reads of this shard.
  @usableFromInline var hits = 0
  @usableFromInline var misses = 0

  /// Creates an empty shard.
  @inlinable
  init() {
    buckets = Self.allocate(4)
    mask = 3
  }

  deinit {
    buckets.deallocate()
  }

  /// `count` empty buckets.
  @inlinable
  static func allocate(_ count: Int) -> UnsafeMutablePointer<UInt64> {
    let buckets = UnsafeMutablePointer<UInt64>.allocate(capacity: count)
    buckets.initialize(repeating: 0, count: count)
    return buckets
  }

  /// The upper 32 bits of `hash` (the lower ones chose the shard).
  @inlinable
  static func tag(_ hash: Int) -> UInt64 { UInt64(bitPattern: Int64(hash)) &>> 32 }

  /// The first bucket to probe for `tag`.
  @inlinable
  func home(_ tag: UInt64) -> Int { Int(truncatingIfNeeded: tag) & mask }

  /// The slot a non-empty bucket holds.
  @inlinable
  func slot(at bucket: Int) -> Int { Int(truncatingIfNeeded: buckets[bucket] & 0xFFFF_FFFF) &- 1 }

  /// The bucket of `key`, whose hash is `hash`, or nil when the shard does not hold it.
  @inlinable
  func find(_ key: Key, hash: Int, in records: Records) -> Int? {
    find(hash: hash) { records.entry($0).pointee.key == key }
  }

  /// The bucket of slot `slot`, whose key's hash is `hash`, or nil.
  @inlinable
  func find(slot: Int, hash: Int) -> Int? {
    find(hash: hash) { $0 == slot }
  }

  /// The first bucket, probing from the home of `hash`, whose tag is that of
  /// `hash` and whose slot `matches`; nil when an empty bucket comes first.
  @inlinable
  func find(hash: Int, where matches: (Int) -> Bool) -> Int? {
    let tag = Self.tag(hash)
    var bucket = home(tag)
    while true {
      let found = buckets[bucket]
      if found == 0 { return nil }
      if found &>> 32 == tag, matches(Int(truncatingIfNeeded: found & 0xFFFF_FFFF) &- 1) {
        return bucket
      }
      bucket = (bucket &+ 1) & mask
    }
  }

  /// Reads `key` (whose hash is `hash`) for thread number `thread` at the clock's
  /// time, or at `latest` if that is later (`latest` is read only for an entry that
  /// expires): answers with the value's future (see
  /// ``EntryRecords/future(_:entry:thread:)``), moves the deadline of an entry that
  /// slides to `slide` nanoseconds from now (after-access expiry) and counts the
  /// hit or miss. An expired entry reads as a miss, reported in `report`.
  @inlinable
  mutating func read(
    _ key: Key, hash: Int, in records: Records, thread: Int, clock: ClockSource,
    latest: UnsafePointer<Atomic<Int64>>, slide: Int64, report: inout ReadReport
  ) -> Future<Value>? {
    guard let bucket = find(key, hash: hash, in: records) else {
      misses &+= 1
      return nil
    }
    let slot = slot(at: bucket)
    let record = records.store.record(slot)
    let entry = Records.entry(in: record)
    let node = Records.node(in: record)
    let deadline = entry.pointee.deadline
    if deadline != TimerWheel.none {
      let now = Swift.max(clock.nanoseconds(), latest.pointee.load(ordering: .relaxed))
      guard now < deadline else {
        misses &+= 1
        report.expiredTicket = ReadTicket.make(slot: slot, generation: node.pointee.generation)
        report.expiredAt = now
        return nil
      }
      if node.pointee.flags & Records.slidesFlag != 0 {
        entry.pointee.deadline =
          CacheInstant(nanoseconds: now).adding(nanoseconds: slide).nanoseconds
      }
    }
    hits &+= 1
    report.ticket = ReadTicket.make(slot: slot, generation: node.pointee.generation)
    if report.wantsTimes {
      report.storedAt = entry.pointee.storedAt
      report.deadline = entry.pointee.deadline
    }
    return records.future(slot, entry: entry, thread: thread)
  }

  /// Replaces the value of `key` (whose hash is `hash`) by `value` stored at `now`
  /// to expire at `deadline` (``TimerWheel/none``: never), when the shard holds the
  /// key with a value of the same `cost` whose reads do not extend its life, and
  /// which expires no later than `deadline` (never, when `deadline` is none);
  /// answers with the entry's ticket, or 0 when it changed nothing. The policy's view
  /// of the entry stays right: the cost did not change, and the timer wheel, which
  /// holds the entry at its old deadline or not at all, finds it live there and
  /// schedules it again at its new one.
  @inlinable
  mutating func replace(
    _ key: Key, hash: Int, with value: Value, cost: Int, now: Int64, deadline: Int64,
    in records: Records
  ) -> UInt64 {
    guard let bucket = find(key, hash: hash, in: records) else { return 0 }
    let slot = slot(at: bucket)
    let entry = records.entry(slot)
    let node = records.node(slot)
    let old = entry.pointee.deadline
    guard node.pointee.cost == cost, node.pointee.flags & Records.slidesFlag == 0,
      deadline == TimerWheel.none
        ? old == TimerWheel.none : old != TimerWheel.none && old <= deadline
    else { return 0 }
    entry.pointee.value = value
    records.dropFuture(slot)
    entry.pointee.storedAt = now
    entry.pointee.deadline = deadline
    return records.ticket(slot)
  }

  /// Adds slot `slot`, whose key's hash is `hash` and which the shard does not hold.
  @inlinable
  mutating func insert(slot: Int, hash: Int) {
    if (count &+ 1) &* 4 > (mask &+ 1) &* 3 { grow() }
    let tag = Self.tag(hash)
    var bucket = home(tag)
    while buckets[bucket] != 0 { bucket = (bucket &+ 1) & mask }
    buckets[bucket] = tag &<< 32 | UInt64(truncatingIfNeeded: slot &+ 1)
    count &+= 1
  }

  /// Removes the bucket `bucket` and returns its slot.
  @inlinable
  @discardableResult
  mutating func remove(at bucket: Int) -> Int {
    let removed = slot(at: bucket)
    buckets[bucket] = 0
    count &-= 1
    // Shift back the buckets after the hole that could no longer be found from their home.
    var hole = bucket
    var next = (bucket &+ 1) & mask
    while buckets[next] != 0 {
      let home = home(buckets[next] &>> 32)
      let reachable = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
      if !reachable {
        buckets[hole] = buckets[next]
        buckets[next] = 0
        hole = next
      }
      next = (next &+ 1) & mask
    }
    return removed
  }

  /// Doubles the number of buckets.
  @inlinable
  mutating func grow() {
    let old = buckets
    let oldCount = mask &+ 1
    buckets = Self.allocate(oldCount &* 2)
    mask = oldCount &* 2 &- 1
    for bucket in 0..<oldCount where old[bucket] != 0 {
      var target = home(old[bucket] &>> 32)
      while buckets[target] != 0 { target = (target &+ 1) & mask }
      buckets[target] = old[bucket]
    }
    old.deallocate()
  }

  /// Removes every slot, deinitializing their entries in `records`.
  @inlinable
  mutating func removeAll(in records: Records) {
    for bucket in 0...mask where buckets[bucket] != 0 {
      records.destroy(slot(at: bucket))
      buckets[bucket] = 0
    }
    count = 0
  }
}
