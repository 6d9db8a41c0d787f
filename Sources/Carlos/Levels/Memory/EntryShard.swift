import Synchronization

/// One shard of a ``MemoryCacheLevel``'s index: the entries whose keys' hashes
/// select this shard, in an open-addressing table (linear probing, deletion by
/// shifting back) searched with the hash the level computed once per operation.
///
/// Each entry carries what a read needs without the level's policy: the value (and,
/// in a small shard, the completed future that readers share), its times, and the
/// ticket of its slot in the ``SlotTable``. The shard also counts its hits and
/// misses. The buckets live in memory the shard owns, so that a read copies nothing
/// it does not return. Not thread-safe by itself: every shard has its own lock.
@usableFromInline
struct EntryShard<Key: Hashable & Sendable, Value: Sendable>: ~Copyable, @unchecked Sendable {
  // @unchecked: the storage belongs to the shard alone, and the shard is reached
  // only under its lock (see ``ShardSet``).
  /// A stored key and what the level knows of its value.
  @usableFromInline
  struct Entry: Sendable {
    // What a hit reads comes first (key, future, tag, deadline), so that it shares
    // a cache line more often when an entry straddles two.
    @usableFromInline var key: Key
    /// The completed future readers share, made by the first read of `value`.
    @usableFromInline var future: Future<Value>?
    /// The entry's ticket, with ``slidesFlag`` set when reads extend the value's
    /// life (after-access expiry, by the level's one duration): one word for both.
    @usableFromInline var tag: UInt64
    /// When the value expires (``TimerWheel/none``: never); reads move it when the entry slides.
    @usableFromInline var deadline: Int64
    @usableFromInline var value: Value
    /// The value's cost, as the policy counts it.
    @usableFromInline var cost: Int
    /// When the value was stored, in nanoseconds since 1970.
    @usableFromInline var storedAt: Int64

    /// Set in `tag` when reads extend the value's life (tickets never use the top bit).
    @inlinable
    static var slidesFlag: UInt64 { 1 << 63 }

    /// The entry's slot and that slot's generation (see ``ReadTicket``).
    @inlinable
    var ticket: UInt64 { tag & ~Self.slidesFlag }

    /// Whether a read extends the value's life.
    @inlinable
    var slides: Bool { tag & Self.slidesFlag != 0 }

    /// `ticket` with the flag of `slides`, as `tag` holds them.
    @inlinable
    static func tag(_ ticket: UInt64, slides: Bool) -> UInt64 {
      slides ? ticket | slidesFlag : ticket
    }

    @inlinable
    init(
      key: Key, value: Value, cost: Int, ticket: UInt64, storedAt: Int64, deadline: Int64,
      slides: Bool
    ) {
      self.key = key
      self.value = value
      self.future = nil
      self.cost = cost
      self.tag = Self.tag(ticket, slides: slides)
      self.storedAt = storedAt
      self.deadline = deadline
    }
  }

  /// What a read learned besides the value.
  @usableFromInline
  struct ReadReport: Sendable {
    /// Whether the reader wants `storedAt` and `deadline` (they cost a hit a cache line).
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

  /// The hash of the key in each bucket (never 0), or 0 for an empty bucket.
  @usableFromInline var hashes: UnsafeMutablePointer<Int>
  /// The entry in each bucket whose hash is not 0; the others are uninitialized.
  @usableFromInline var entries: UnsafeMutablePointer<Entry>
  /// The number of buckets less one (the number is a power of two).
  @usableFromInline var mask: Int
  /// The number of entries.
  @usableFromInline var count = 0
  /// The hits and misses of reads of this shard.
  @usableFromInline var hits = 0
  @usableFromInline var misses = 0
  /// A byte a read loads early to bring an entry's cache line in; never used.
  @usableFromInline var warmth: UInt8 = 0

  /// Creates an empty shard.
  @inlinable
  init() {
    (hashes, entries) = Self.allocate(4)
    mask = 3
  }

  deinit {
    for bucket in 0...mask where hashes[bucket] != 0 { (entries + bucket).deinitialize(count: 1) }
    Self.deallocate(hashes, entries)
  }

  /// Storage for `buckets` empty buckets. The entries start on a cache line, so
  /// an entry of 64 bytes (a `String` key and a word-sized value) is one line.
  @inlinable
  static func allocate(_ buckets: Int) -> (UnsafeMutablePointer<Int>, UnsafeMutablePointer<Entry>) {
    let hashes = UnsafeMutablePointer<Int>.allocate(capacity: buckets)
    hashes.initialize(repeating: 0, count: buckets)
    let entries = UnsafeMutableRawPointer.allocate(
      byteCount: buckets * MemoryLayout<Entry>.stride,
      alignment: Swift.max(64, MemoryLayout<Entry>.alignment))
    return (hashes, entries.bindMemory(to: Entry.self, capacity: buckets))
  }

  /// Frees what ``allocate(_:)`` returned (the entries deinitialized).
  @inlinable
  static func deallocate(
    _ hashes: UnsafeMutablePointer<Int>, _ entries: UnsafeMutablePointer<Entry>
  ) {
    hashes.deallocate()
    UnsafeMutableRawPointer(entries).deallocate()
  }

  /// From this many buckets on, a read asks for its entry's line early (see ``read``).
  @inlinable
  static var warmingBuckets: Int { 256 }

  /// The hash as stored in a bucket: 0 is reserved for empty buckets.
  @inlinable
  static func stored(_ hash: Int) -> Int { hash == 0 ? 1 : hash }

  /// The first bucket to probe for `storedHash`: bits above those that chose the shard.
  @inlinable
  func home(_ storedHash: Int) -> Int {
    Int(bitPattern: UInt(bitPattern: storedHash) &>> 8) & mask
  }

  /// The bucket of `key`, whose hash is `hash`, or nil when the shard does not hold it.
  @inlinable
  func find(_ key: Key, hash: Int) -> Int? {
    find(hash: hash) { $0.key == key }
  }

  /// The bucket of the entry with `ticket`, whose key's hash is `hash`, or nil.
  @inlinable
  func find(ticket: UInt64, hash: Int) -> Int? {
    find(hash: hash) { $0.ticket == ticket }
  }

  /// The first bucket, probing from the home of `hash`, whose entry has that hash
  /// and `matches`; nil when an empty bucket comes first.
  @inlinable
  func find(hash: Int, where matches: (borrowing Entry) -> Bool) -> Int? {
    let target = Self.stored(hash)
    var bucket = home(target)
    while true {
      let found = hashes[bucket]
      if found == 0 { return nil }
      if found == target, matches(entries[bucket]) { return bucket }
      bucket = (bucket &+ 1) & mask
    }
  }

  /// Reads `key` (whose hash is `hash`) at the clock's time, or at `latest` if that
  /// is later (`latest` is read only for an entry that expires): answers with
  /// the future readers share (made on the first read), moves the deadline of an
  /// entry that slides to `slide` nanoseconds from now (after-access expiry) and
  /// counts the hit or miss. An expired entry reads as a miss, reported in `report`.
  @inlinable
  mutating func read(
    _ key: Key, hash: Int, clock: ClockSource, latest: UnsafePointer<Atomic<Int64>>,
    slide: Int64, report: inout ReadReport
  ) -> Future<Value>? {
    // Ask for the home bucket's entry together with its hash: at large sizes both
    // are cache misses, and a probe usually ends at the home bucket or just after
    // it, so the two lines are fetched in parallel rather than one after the other.
    // (The entry may be uninitialized; only its first byte is read, into `warmth`.)
    // A small shard stays in the caches: there the load would only add work.
    if mask >= Self.warmingBuckets {
      warmth = UnsafeRawPointer(entries + home(Self.stored(hash))).load(as: UInt8.self)
    }
    guard let bucket = find(key, hash: hash) else {
      misses &+= 1
      return nil
    }
    let entry = entries + bucket
    if entry.pointee.deadline != TimerWheel.none {
      let now = Swift.max(clock.nanoseconds(), latest.pointee.load(ordering: .relaxed))
      guard now < entry.pointee.deadline else {
        misses &+= 1
        report.expiredTicket = entry.pointee.ticket
        report.expiredAt = now
        return nil
      }
      if entry.pointee.slides {
        entry.pointee.deadline =
          CacheInstant(nanoseconds: now).adding(nanoseconds: slide).nanoseconds
      }
    }
    hits &+= 1
    report.ticket = entry.pointee.ticket
    if report.wantsTimes {
      report.storedAt = entry.pointee.storedAt
      report.deadline = entry.pointee.deadline
    }
    if let shared = entry.pointee.future { return shared }
    let future = Future(entry.pointee.value)
    // A small shard keeps the future for the next reads. In a large one, reaching a
    // kept future would be one more cache miss after the entry's (and 50-odd bytes
    // per entry): a new one, from memory the allocator just freed, costs less.
    if mask < Self.warmingBuckets { entry.pointee.future = future }
    return future
  }

  /// Replaces the value of `key` (whose hash is `hash`) by `value` stored at `now`,
  /// when the shard holds the key with a value of the same `cost` that never
  /// expires; answers with the entry's ticket, or 0 when it changed nothing. The
  /// policy's view of the entry stays right: the cost did not change, and nothing
  /// was or is scheduled to expire.
  @inlinable
  mutating func replace(_ key: Key, hash: Int, with value: Value, cost: Int, now: Int64) -> UInt64 {
    guard let bucket = find(key, hash: hash) else { return 0 }
    let entry = entries + bucket
    guard entry.pointee.cost == cost, entry.pointee.deadline == TimerWheel.none else { return 0 }
    entry.pointee.value = value
    entry.pointee.future = nil
    entry.pointee.storedAt = now
    return entry.pointee.ticket
  }

  /// Adds `entry`, whose key the shard does not hold and whose hash is `hash`.
  @inlinable
  mutating func insert(_ entry: consuming Entry, hash: Int) {
    if (count &+ 1) &* 4 > (mask &+ 1) &* 3 { grow() }
    let target = Self.stored(hash)
    var bucket = home(target)
    while hashes[bucket] != 0 { bucket = (bucket &+ 1) & mask }
    hashes[bucket] = target
    (entries + bucket).initialize(to: entry)
    count &+= 1
  }

  /// Removes the entry in `bucket` and returns it.
  @inlinable
  @discardableResult
  mutating func remove(at bucket: Int) -> Entry {
    let removed = (entries + bucket).move()
    hashes[bucket] = 0
    count &-= 1
    // Shift back the entries after the hole that could no longer be found from their home.
    var hole = bucket
    var next = (bucket &+ 1) & mask
    while hashes[next] != 0 {
      let home = home(hashes[next])
      let reachable = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
      if !reachable {
        hashes[hole] = hashes[next]
        (entries + hole).moveInitialize(from: entries + next, count: 1)
        hashes[next] = 0
        hole = next
      }
      next = (next &+ 1) & mask
    }
    return removed
  }

  /// Doubles the number of buckets.
  @inlinable
  mutating func grow() {
    let (oldHashes, oldEntries) = (hashes, entries)
    let oldCount = mask &+ 1
    (hashes, entries) = Self.allocate(oldCount &* 2)
    mask = oldCount &* 2 &- 1
    for bucket in 0..<oldCount where oldHashes[bucket] != 0 {
      var target = home(oldHashes[bucket])
      while hashes[target] != 0 { target = (target &+ 1) & mask }
      hashes[target] = oldHashes[bucket]
      (entries + target).moveInitialize(from: oldEntries + bucket, count: 1)
    }
    Self.deallocate(oldHashes, oldEntries)
  }

  /// Removes every entry.
  @inlinable
  mutating func removeAll() {
    for bucket in 0...mask where hashes[bucket] != 0 {
      (entries + bucket).deinitialize(count: 1)
      hashes[bucket] = 0
    }
    count = 0
  }
}
