import Foundation
import Synchronization

/// A cache level in memory, bounded by the total cost of what it holds.
///
/// Every value has a cost: ``ExpensiveObject/cost`` for values that conform
/// (bytes for `Data` and `String`, 1 for numbers), or what the `cost` function
/// given at init says for any other `Sendable` value; the level never holds more
/// than `capacity` in total once a `set` has returned. When a new value does not
/// fit, the ``EvictionPolicy`` picks what to drop; the value just stored is always kept.
/// The default policy, adaptive W-TinyLFU, keeps the values most likely to be
/// asked for again on a wide range of workloads (recency-bound, frequency-bound,
/// loops and scans).
///
/// `get` and `set` take O(1) time (amortized: one `set` may evict many small
/// values) and are safe to call from many threads at once; they answer with
/// futures that are already complete. In a level of up to 16,384 entries, a hit
/// returns the same completed future for a stored value until that value is
/// replaced, so hits allocate nothing after the first. In a larger level, the
/// other slots keep no future (it would cost a cache miss and memory per entry):
/// a hit hands out the calling thread's spare future again, with the new value,
/// once nothing else holds it, so a get whose answer is read and let go allocates
/// nothing; a hit while the caller still holds the previous answer allocates one
/// small future. (So each thread's spare holds the last value it handed out until
/// its next such hit, or until the level is cleared.) A miss fails with
/// ``FetchError/valueNotInCache``. `clear()` and `onMemoryWarning()` empty the
/// level and let go of the spares.
///
/// Costs below 1 count as 1, so the number of values is bounded by the capacity
/// too. A value whose cost exceeds the whole capacity is not stored: its `set`
/// fails with ``MemoryCacheLevelError/valueTooLarge(cost:capacity:)`` and any
/// older value for that key is removed, so a later `get` cannot return stale data.
///
/// Values can expire (see ``ExpirationPolicy``): after they were written, after
/// they were last read, or when a closure says, and one `set` can give its own
/// ``Expiry``. An expired value is never returned. Expired values leave the level
/// proactively — a timer wheel finds them in amortised O(1) each on the next
/// `set` or ``removeExpired()`` — so they stop counting against the capacity;
/// a get that finds one removes it. Time comes from `clock` and never goes
/// backwards for the level.
///
/// Reads scale with cores: the entries are indexed in shards, each behind a lock
/// of its own, and a hit takes only its shard's lock. What a read tells the eviction
/// policy is recorded in a small buffer of the reading thread, which the thread
/// hands to the policy in batches under the policy's lock: before each of its
/// writes, and when the buffer is half full and the lock is free. Under heavy
/// contention a few reads are dropped, which only blurs the policy's picture of
/// popularity. Writes take the policy's lock, so the capacity bound is exact;
/// only a `set` that replaces a value by one of the same cost, in a level where
/// nothing expires and nobody observes, changes just the shard and is recorded
/// like a read (it cannot change the total cost). The policy sees the reads and
/// writes of one thread in order, so from a single thread eviction is exactly as
/// the policy describes.
///
/// Costs count only what the values report: each entry is one record holding
/// the policy's links and bookkeeping (32 bytes) next to the key, the value and
/// two times, found through an 8-byte index bucket; with the frequency sketch
/// (8 bytes per entry), the eviction history once the level has evicted (about
/// 17) and, in small levels, the shared future of a value that has been read,
/// that is about 100 bytes per `String → Int` entry at a million entries,
/// against about 50 for a `Dictionary`. A level also takes a few kilobytes for
/// its shards and read buffers, and up to 128 KiB for its kept futures' table.
///
/// ```swift
/// let memory = MemoryCacheLevel<URL, Data>(capacity: 64 << 20)  // 64 MiB
/// let sessions = MemoryCacheLevel<String, Data>(expiration: .afterAccess(.seconds(1800)))
/// let users = MemoryCacheLevel<String, User>(capacity: 1_000, cost: { _ in 1 })  // 1,000 users
/// ```
public final class MemoryCacheLevel<Key: Hashable & Sendable, Value: Sendable>:
  TimedCacheLevel, ObservableCacheLevel, InsertingCacheLevel
{
  public typealias KeyType = Key
  public typealias OutputType = Value

  /// The level's name in answers, statistics and log messages: `MemoryCacheLevel`.
  public var levelName: String { "MemoryCacheLevel" }

  /// The earlier of `deadline` and the moment this level's expiration policy gives a
  /// value stored now: how long a composition keeps a copy of a value from below.
  public func expiry(forCopyOf value: Value, forKey key: Key, expiringAt deadline: Date) -> Expiry {
    expiration.expiry(
      ofCopyOf: value, forKey: key, storedAt: CacheInstant(nanoseconds: clock.nanoseconds()),
      expiringAt: deadline)
  }

  /// The total cost the level may hold.
  public let capacity: Int
  /// How the level chooses what to drop.
  public let policy: EvictionPolicy
  /// How long values stay valid when `set` gives no expiry.
  public let expiration: ExpirationPolicy<Key, Value>
  /// Where the level reads the time.
  public let clock: any CacheClock
  /// The cost of an entry, its key and value, as the capacity counts it (below 1
  /// counts as 1).
  public let weigher: @Sendable (Key, Value) -> Int

  /// The policy's side: slots, eviction order, deadlines, events. Writers hold it;
  /// readers only try it, to drain the read buffer.
  @usableFromInline let policyLock: CacheLineBox<Lock<SlotTable<Key, Value>>>
  /// The entries, in shards with locks of their own: what readers lock.
  @usableFromInline let shards: ShardSet<Key, Value>
  /// The reads (and same-cost updates) not yet told to the policy.
  @usableFromInline let reads: ReadBuffer
  /// `clock`, resolved for cheap readings.
  @usableFromInline let source: ClockSource
  /// The latest time any writer saw, so readers never see time go backwards.
  @usableFromInline let latest = CacheLineBox(Atomic<Int64>(.min))
  /// The last tick of the timer wheel's finest wheel (``TimerWheel/tick(of:)``) in
  /// which an update needs no expiry sweep, as of the last write: the tick the wheel
  /// was last advanced in (a sweep finds nothing new before the next tick), or
  /// `Int64.max` while no entry has a deadline.
  @usableFromInline let sweepFreeTick = CacheLineBox(Atomic<Int64>(.max))
  /// How long a read extends the life of a value stored under an after-access
  /// expiration policy, in nanoseconds (0 for other policies).
  @usableFromInline let slide: Int64
  /// How long a value stored under an after-write or after-access expiration
  /// policy lives, in nanoseconds (nil for other policies): converted once here,
  /// not on every `set`.
  @usableFromInline let lifetime: Int64?
  /// Whether misses are worth telling the policy (not for LRU).
  @usableFromInline let recordsMisses: Bool
  /// Counts evictions (the shards count hits and misses); nil when the level
  /// records no statistics.
  @usableFromInline let recorder: StatisticsRecorder?
  @usableFromInline let hub = EventHub<Key>()
  /// Returned for every miss: a completed future can be shared, as nothing can
  /// change it (one copy per group of threads, see ``StripedFuture``).
  @usableFromInline let missFuture: StripedFuture<Value>
  /// Returned for every successful set.
  @usableFromInline let storedFuture: StripedFuture<Void>
  /// Where each thread finds its number (``threadStripe(key:)``).
  @usableFromInline let stripeKey = threadStripeKey()

  /// Creates an empty level for values of any type, whose costs `cost` tells
  /// (keys cost nothing; see ``init(capacity:weigher:policy:expiration:clock:recordsStatistics:)``).
  ///
  /// - Parameters:
  ///   - capacity: the largest total cost the level holds. A negative capacity
  ///     counts as 0 (nothing can be stored); capacities above `Int.max / 2`
  ///     count as `Int.max / 2`.
  ///   - cost: the cost of a value (below 1 counts as 1); `{ _ in 1 }` bounds
  ///     the number of values. Called once per `set`, never under a lock that
  ///     readers wait for.
  ///   - policy: how the level chooses what to drop; by default ``EvictionPolicy/adaptiveTinyLFU``.
  ///   - expiration: how long values stay valid; by default they never expire.
  ///   - clock: where the level reads the time; by default the system's clock.
  ///   - recordsStatistics: whether the level reports its hits, misses and
  ///     evictions (see ``statistics``); on by default, it costs next to nothing.
  public convenience init(
    capacity: Int,
    cost: @escaping @Sendable (Value) -> Int,
    policy: EvictionPolicy = .adaptiveTinyLFU,
    expiration: ExpirationPolicy<Key, Value> = .never,
    clock: any CacheClock = SystemClock(),
    recordsStatistics: Bool = true
  ) {
    self.init(
      capacity: capacity, weigher: { _, value in cost(value) }, policy: policy,
      expiration: expiration, clock: clock, recordsStatistics: recordsStatistics)
  }

  /// Creates an empty level whose entries cost what `weigher` says of their key
  /// and value together: for keys that take memory of their own, such as long
  /// URLs, so that the capacity bounds what an entry really keeps.
  ///
  /// ```swift
  /// let pages = MemoryCacheLevel<String, Data>(
  ///   capacity: 64 << 20, weigher: { url, body in url.utf8.count + body.count })
  /// ```
  ///
  /// - Parameters:
  ///   - capacity: the largest total cost the level holds. A negative capacity
  ///     counts as 0 (nothing can be stored); capacities above `Int.max / 2`
  ///     count as `Int.max / 2`.
  ///   - weigher: the cost of an entry (below 1 counts as 1). Called once per
  ///     `set`, never under a lock that readers wait for.
  ///   - policy: how the level chooses what to drop; by default ``EvictionPolicy/adaptiveTinyLFU``.
  ///   - expiration: how long values stay valid; by default they never expire.
  ///   - clock: where the level reads the time; by default the system's clock.
  ///   - recordsStatistics: whether the level reports its hits, misses and
  ///     evictions (see ``statistics``); on by default, it costs next to nothing.
  public init(
    capacity: Int,
    weigher: @escaping @Sendable (Key, Value) -> Int,
    policy: EvictionPolicy = .adaptiveTinyLFU,
    expiration: ExpirationPolicy<Key, Value> = .never,
    clock: any CacheClock = SystemClock(),
    recordsStatistics: Bool = true
  ) {
    let capacity = Swift.min(Swift.max(0, capacity), Int.max / 2)
    self.capacity = capacity
    self.weigher = weigher
    switch expiration.rule {
    case .afterAccess(let duration):
      slide = duration.nanoseconds
      lifetime = slide
    case .afterWrite(let duration):
      slide = 0
      lifetime = duration.nanoseconds
    case .never, .perEntry:
      slide = 0
      lifetime = nil
    }
    self.policy = policy
    self.expiration = expiration
    self.clock = clock
    source = ClockSource(clock)
    let mode: WindowTinyLFU.Mode
    switch policy {
    case .lru: mode = .lru
    case .tinyLFU: mode = .fixedWindow
    case .adaptiveTinyLFU: mode = .adaptiveWindow
    }
    shards = ShardSet(
      count: ShardSet<Key, Value>.count(forCapacity: capacity), capacity: capacity)
    let eviction = WindowTinyLFU(
      capacity: capacity, mode: mode, random: SplitMix64(), nodes: shards.records.store)
    let recorder = recordsStatistics ? StatisticsRecorder() : nil
    self.recorder = recorder
    policyLock = CacheLineBox(
      Lock(SlotTable(policy: eviction, records: shards.records, recorder: recorder, hub: hub)))
    reads = ReadBuffer.forThisMachine()
    recordsMisses = policy != .lru
    missFuture = StripedFuture { Future(FetchError.valueNotInCache) }
    storedFuture = StripedFuture { Future() }
  }

  /// Answers with the value stored under `key` (an already completed future), or
  /// fails with ``FetchError/valueNotInCache`` (also when the value has expired).
  @inlinable
  public func get(_ key: Key) -> Future<Value> {
    var report = EntryShard<Key, Value>.ReadReport()
    let thread = threadStripe(key: stripeKey)
    return read(key, thread: thread, report: &report) ?? missFuture.future(for: thread)
  }

  /// Answers with the value stored under `key` with when it was stored and when it
  /// expires; fails like ``get(_:)``. Counts as a read (it slides an after-access expiry).
  @inlinable
  public func entry(forKey key: Key) -> Future<CacheEntry<Value>> {
    guard let found = readEntry(key) else { return Future(FetchError.valueNotInCache) }
    return Future(found)
  }

  /// Answers like ``get(_:)``, naming this level as the source and telling when the
  /// value expires (``CacheAnswer/expiresAt``).
  @inlinable
  public func getWithSource(_ key: Key) -> Future<CacheAnswer<Value>> {
    guard let found = readEntry(key) else { return Future(FetchError.valueNotInCache) }
    return Future(
      CacheAnswer(
        value: found.value, source: levelName, wasWrittenBack: false, isNamed: false,
        expiresAt: found.expiresAt))
  }

  /// The entry of `key`, read as a get reads it; `nil` when there is none.
  @inlinable
  func readEntry(_ key: Key) -> CacheEntry<Value>? {
    var report = EntryShard<Key, Value>.ReadReport()
    report.wantsTimes = true
    let thread = threadStripe(key: stripeKey)
    guard case .success(let value)? = read(key, thread: thread, report: &report)?.result else {
      return nil
    }
    return CacheEntry(
      value: value,
      storedAt: CacheInstant(nanoseconds: report.storedAt).date,
      expiresAt: report.deadline == TimerWheel.none
        ? nil : CacheInstant(nanoseconds: report.deadline).date)
  }

  /// Reads `key` in its shard (see ``EntryShard/read(_:hash:in:thread:clock:latest:slide:report:)``)
  /// and records the read for the policy in the buffer of thread number `thread`
  /// (the caller's); then removes the entry if it has expired, or drains the read
  /// buffer when it is half full and the policy's lock is free.
  @inlinable
  func read(
    _ key: Key, thread: Int, report: inout EntryShard<Key, Value>.ReadReport
  ) -> Future<Value>? {
    let hash = key.hashValue
    let records = shards.records
    let future = shards.withShard(hash: hash) { shard in
      shard.read(
        key, hash: hash, in: records, thread: thread, clock: source, latest: latest.pointer,
        slide: slide, report: &report)
    }
    let drains: Bool
    if report.ticket != 0 {
      drains = reads.recordHit(report.ticket, thread: thread)
    } else if report.expiredTicket != 0 {
      let (ticket, now) = (report.expiredTicket, report.expiredAt)
      write(thread: thread) { table in
        table.expire(ticket: ticket, now: table.observe(now), in: shards)
        table.recordMiss(hash: UInt64(bitPattern: Int64(hash)))
      }
      return nil
    } else {
      drains =
        recordsMisses
        && reads.recordMiss(hash: UInt64(bitPattern: Int64(hash)), thread: thread)
    }
    if drains { drainIfFree(thread: thread) }
    return future
  }

  /// Tells the policy what thread number `thread` recorded, unless another thread
  /// holds the policy's lock.
  @inlinable
  func drainIfFree(thread: Int) {
    policyLock.pointer.pointee.withLockIfAvailable { table in table.drain(reads, thread: thread) }
  }

  /// Runs `body` under the policy's lock, after telling the policy the reads the
  /// calling thread (number `thread`, by default its own) recorded, or all recorded
  /// reads when `drainingAll`; hands the events to the observers before giving the
  /// lock up.
  @inlinable
  func write<Result>(
    drainingAll: Bool = false, thread: Int? = nil,
    _ body: (inout SlotTable<Key, Value>) -> Result
  ) -> Result {
    let thread = drainingAll ? nil : thread ?? threadStripe(key: stripeKey)
    return policyLock.pointer.pointee.withLockSpinning { table -> Result in
      table.drain(reads, thread: thread)
      let result = body(&table)
      if latest.pointer.pointee.load(ordering: .relaxed) != table.latest {
        latest.pointer.pointee.store(table.latest, ordering: .relaxed)
      }
      let sweepFree = table.wheel.count == 0 ? .max : TimerWheel.tick(of: table.wheel.time)
      if sweepFreeTick.pointer.pointee.load(ordering: .relaxed) != sweepFree {
        sweepFreeTick.pointer.pointee.store(sweepFree, ordering: .relaxed)
      }
      table.flushEvents()
      return result
    }
  }

  /// Stores `value` under `key` with the level's expiration policy, evicting other
  /// values if needed so the total cost fits the capacity. Answers with an already
  /// completed future, which fails with
  /// ``MemoryCacheLevelError/valueTooLarge(cost:capacity:)`` when the value alone
  /// costs more than the capacity.
  @inlinable
  @discardableResult
  public func set(_ value: Value, forKey key: Key) -> Future<Void> {
    let (expiry, slide) = policyExpiry(of: key, value)
    return store(value, forKey: key, expiry: expiry, slide: slide, lifetime: lifetime)
  }

  /// When the level's expiration policy says a value set now expires, and how far each
  /// read moves that (after-access policies; zero otherwise).
  @inlinable
  func policyExpiry(of key: Key, _ value: Value) -> (expiry: Expiry, slide: Int64) {
    switch expiration.rule {
    case .never: return (.never, 0)
    case .afterWrite(let duration): return (.after(duration), 0)
    case .afterAccess(let duration): return (.after(duration), duration.nanoseconds)
    case .perEntry(let decide): return (decide(key, value), 0)
    }
  }

  /// Stores `value` under `key` until `expiry`, whatever the level's policy says.
  /// An expiry already past stores nothing, removes any older value and succeeds.
  @discardableResult
  public func set(_ value: Value, forKey key: Key, expiry: Expiry) -> Future<Void> {
    store(value, forKey: key, expiry: expiry, slide: 0)
  }

  /// Stores `value` under `key` until `expiry` (like ``set(_:forKey:expiry:)``,
  /// whatever the level's policy says) only if the level holds no live value for
  /// `key`; an expired value counts as none. Atomic with respect to every other
  /// `set`, `insertIfAbsent` and `remove` on the level: of many callers racing to
  /// insert one key, exactly one stores.
  ///
  /// Answers with an already completed future: true when it stored the value,
  /// false when a live value was already there (that value is left as it is) or
  /// when `expiry` is already past (nothing is stored). Fails with
  /// ``MemoryCacheLevelError/valueTooLarge(cost:capacity:)`` when no value is
  /// there and `value` alone costs more than the capacity.
  @discardableResult
  public func insertIfAbsent(_ value: Value, forKey key: Key, expiry: Expiry) -> Future<Bool> {
    insert(value, forKey: key, expiry: expiry, slide: 0)
  }

  /// Stores `value` under `key` only if the level holds no live value for `key`, like
  /// ``insertIfAbsent(_:forKey:expiry:)``; the value expires as the level's
  /// `expiration` policy says, as with ``set(_:forKey:)``.
  @discardableResult
  public func insertIfAbsent(_ value: Value, forKey key: Key) -> Future<Bool> {
    let (expiry, slide) = policyExpiry(of: key, value)
    return insert(value, forKey: key, expiry: expiry, slide: slide, lifetime: lifetime)
  }

  /// The insert-if-absent of `value`, expiring at `expiry` (or `lifetime` nanoseconds
  /// from now, when given) and, when `slide` is not zero, `slide` nanoseconds after
  /// each read.
  private func insert(
    _ value: Value, forKey key: Key, expiry: Expiry, slide: Int64, lifetime: Int64? = nil
  ) -> Future<Bool> {
    let cost = Swift.max(1, weigher(key, value))
    let hash = key.hashValue
    let clockNow = source.nanoseconds()
    let outcome = write { table -> Result<Bool, MemoryCacheLevelError> in
      let now = table.observe(clockNow)
      if table.holdsLiveValue(for: key, hash: hash, now: now, in: shards) { return .success(false) }
      guard cost <= capacity else {
        return .failure(.valueTooLarge(cost: cost, capacity: capacity))
      }
      let deadline = Self.deadline(of: expiry, lifetime: lifetime, storedAt: now)
      guard deadline > now else {
        table.removeExpired(now: now, in: shards)
        return .success(false)
      }
      table.store(
        value, cost: cost, hash: hash, for: key, now: now, deadline: deadline, slide: slide,
        in: shards)
      return .success(true)
    }
    switch outcome {
    case .success(let stored): return Future(stored)
    case .failure(let error): return Future(error)
    }
  }

  /// When a value stored at `now` expires (``TimerWheel/none``: never): `lifetime`
  /// nanoseconds later when given, otherwise as `expiry` says.
  @inlinable
  static func deadline(of expiry: Expiry, lifetime: Int64?, storedAt now: Int64) -> Int64 {
    if let lifetime {
      return CacheInstant(nanoseconds: now).adding(nanoseconds: lifetime).nanoseconds
    }
    return expiry.deadline(storedAt: CacheInstant(nanoseconds: now))?.nanoseconds ?? TimerWheel.none
  }

  /// Stores `value` under `key` until `expiry` (or for `lifetime` nanoseconds, when
  /// given: the level's policy, converted once), sliding by `slide` on each read.
  @inlinable
  func store(
    _ value: Value, forKey key: Key, expiry: Expiry, slide: Int64, lifetime: Int64? = nil
  ) -> Future<Void> {
    let cost = Swift.max(1, weigher(key, value))
    let hash = key.hashValue
    guard cost <= capacity else {
      write { table in table.removeValue(for: key, hash: hash, in: shards) }
      return Future(MemoryCacheLevelError.valueTooLarge(cost: cost, capacity: capacity))
    }
    let clockNow = source.nanoseconds()
    let thread = threadStripe(key: stripeKey)
    if slide == 0,
      replace(
        key, hash: hash, with: value, cost: cost, expiry: expiry, lifetime: lifetime,
        at: clockNow, thread: thread)
    {
      return storedFuture.future(for: thread)
    }
    write(thread: thread) { table in
      let now = table.observe(clockNow)
      let deadline = Self.deadline(of: expiry, lifetime: lifetime, storedAt: now)
      if deadline <= now {
        table.removeValue(for: key, hash: hash, in: shards)
        table.removeExpired(now: now, in: shards)
      } else {
        table.store(
          value, cost: cost, hash: hash, for: key, now: now, deadline: deadline, slide: slide,
          in: shards)
      }
    }
    return storedFuture.future(for: thread)
  }

  /// Replaces the value of a stored key by one of the same cost, valid until
  /// `expiry` (or for `lifetime` nanoseconds, when given), in the key's shard alone,
  /// and records the update in the read buffer instead of taking the policy's lock,
  /// when nothing else is needed: no expiry sweep is due (no entry expires, or the
  /// timer wheel was advanced within the current tick), nobody observes the level
  /// (so there is no event to order), and the new value expires no earlier than the
  /// old one (which the wheel then finds still live at its old deadline, and
  /// schedules again). Returns whether it did; `thread` is the calling thread's number.
  @inlinable
  func replace(
    _ key: Key, hash: Int, with value: Value, cost: Int, expiry: Expiry, lifetime: Int64?,
    at clockNow: Int64, thread: Int
  ) -> Bool {
    guard !hub.isObserved else { return false }
    let now = Swift.max(clockNow, latest.pointer.pointee.load(ordering: .relaxed))
    guard TimerWheel.tick(of: now) <= sweepFreeTick.pointer.pointee.load(ordering: .relaxed)
    else { return false }
    let deadline = Self.deadline(of: expiry, lifetime: lifetime, storedAt: now)
    guard deadline > now else { return false }
    let records = shards.records
    let ticket = shards.withShard(hash: hash) { shard in
      shard.replace(
        key, hash: hash, with: value, cost: cost, now: now, deadline: deadline, in: records)
    }
    guard ticket != 0 else { return false }
    guard let drains = reads.recordUpdate(ticket, thread: thread) else {
      write(thread: thread) { table in table.update(ticket: ticket) }
      return true
    }
    if drains { drainIfFree(thread: thread) }
    return true
  }

  /// Removes every expired value now; answers with an already completed future.
  /// Takes time in proportion to the expired values, not to all values.
  @discardableResult
  public func removeExpired() -> Future<Void> {
    let clockNow = source.nanoseconds()
    write { table in
      table.removeExpired(now: table.observe(clockNow), exact: true, in: shards)
    }
    return storedFuture.future(for: threadStripe(key: stripeKey))
  }

  /// Removes the value stored under `key`, if any. Answers with an already completed future.
  @discardableResult
  public func remove(_ key: Key) -> Future<Void> {
    let hash = key.hashValue
    write { table in table.removeValue(for: key, hash: hash, in: shards) }
    return storedFuture.future(for: threadStripe(key: stripeKey))
  }

  /// Removes every value.
  public func clear() {
    clear(event: .cleared)
  }

  /// Removes every value, freeing the memory they used.
  public func onMemoryWarning() {
    clear(event: .memoryWarning)
  }

  private func clear(event: CacheEvent<Key>) {
    write { table in
      table.note(event)
      if case .memoryWarning = event { table.note(.cleared) }
      table.removeAll(from: shards)
    }
  }

  /// What the level has done since it was created: hits, misses, evictions and
  /// their cost (a level made with `recordsStatistics: false` reports zeros).
  public var statistics: CacheStatistics {
    guard var statistics = recorder?.snapshot else { return CacheStatistics() }
    for index in 0..<shards.count {
      shards.withShard(at: index) { shard in
        statistics.hitCount += shard.hits
        statistics.missCount += shard.misses
      }
    }
    return statistics
  }

  /// Calls `callback` with every event of the level (set, removed, expired, evicted,
  /// cleared, memory warning) until the token is cancelled or released.
  public func observe(_ callback: @escaping @Sendable (CacheEvent<Key>) -> Void) -> ObservationToken
  {
    hub.observeAll(callback)
  }

  /// Calls `callback` with the events about `key`, clears and memory warnings.
  public func observe(
    key: Key, _ callback: @escaping @Sendable (CacheEvent<Key>) -> Void
  ) -> ObservationToken {
    hub.observe(key: key, callback)
  }

  /// Runs `body` on the eviction policy once it has been told every read so far (for tests).
  func withPolicy<Result>(_ body: (inout WindowTinyLFU) -> Result) -> Result {
    write(drainingAll: true) { table in body(&table.policy) }
  }

  /// Waits until every event emitted so far has reached the observers (for tests).
  package func eventsDelivered() async {
    await hub.afterDelivery()
  }

  /// The sum of the costs of the values the level holds.
  public var totalCost: Int {
    write { $0.totalCost }
  }

  /// The number of values the level holds.
  public var count: Int {
    write { $0.count }
  }
}

extension MemoryCacheLevel where Value: ExpensiveObject {
  /// Creates an empty level whose values tell their own cost (``ExpensiveObject/cost``).
  ///
  /// - Parameters:
  ///   - capacity: the largest total cost the level holds; by default 100 MiB
  ///     worth of cost. A negative capacity counts as 0 (nothing can be stored);
  ///     capacities above `Int.max / 2` count as `Int.max / 2`.
  ///   - policy: how the level chooses what to drop; by default ``EvictionPolicy/adaptiveTinyLFU``.
  ///   - expiration: how long values stay valid; by default they never expire.
  ///   - clock: where the level reads the time; by default the system's clock.
  ///   - recordsStatistics: whether the level reports its hits, misses and
  ///     evictions (see ``statistics``); on by default, it costs next to nothing.
  public convenience init(
    capacity: Int = 100 * 1024 * 1024,
    policy: EvictionPolicy = .adaptiveTinyLFU,
    expiration: ExpirationPolicy<Key, Value> = .never,
    clock: any CacheClock = SystemClock(),
    recordsStatistics: Bool = true
  ) {
    self.init(
      capacity: capacity, weigher: { $1.cost }, policy: policy, expiration: expiration,
      clock: clock,
      recordsStatistics: recordsStatistics)
  }
}
