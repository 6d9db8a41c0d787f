/// The state of a ``MemoryCacheLevel``, guarded by its lock: the entries, stored
/// in slots found through a dictionary, and the eviction policy that orders them.
///
/// Free slots are reused, so steady-state operation allocates nothing. The first
/// read of a stored value wraps it in a completed ``Future``, which is kept in
/// place of the value and returned by every later read: a completed future can
/// never change, so sharing it is safe, and hits then allocate nothing.
@usableFromInline
struct EntryTable<Key: Hashable & Sendable, Value: Sendable> {
  /// A stored value, as stored or already wrapped for readers.
  @usableFromInline
  enum Stored {
    case value(Value)
    case future(Future<Value>)
  }

  /// The slot of every stored key.
  @usableFromInline var index: [Key: Int] = [:]
  /// The key in each slot (`nil` for a free slot).
  @usableFromInline var keys: ContiguousArray<Key?> = []
  /// The value in each slot (`nil` for a free slot).
  @usableFromInline var values: ContiguousArray<Stored?> = []
  /// Slots that hold nothing and can be reused.
  @usableFromInline var freeSlots: [Int] = []
  /// Scratch space for the slots evicted by one store (kept to avoid allocating).
  @usableFromInline var evicted: [Int] = []
  @usableFromInline var policy: WindowTinyLFU
  /// When each slot's value was stored, in nanoseconds since 1970.
  @usableFromInline var storedAt: ContiguousArray<Int64> = []
  /// For each slot, how long a read extends its life (after-access expiry), or 0.
  @usableFromInline var sliding: ContiguousArray<Int64> = []
  /// The deadlines of the slots that expire.
  @usableFromInline var wheel = TimerWheel(time: .min)
  /// The latest time seen: the table never lets time go backwards.
  @usableFromInline var latest: Int64 = .min
  /// Counts evictions, when the level records statistics.
  @usableFromInline let recorder: StatisticsRecorder?
  /// The level's observers.
  @usableFromInline let hub: EventHub<Key>
  /// Events of the operation under way, handed to the hub before the lock is given up.
  @usableFromInline var pendingEvents: [CacheEvent<Key>] = []

  /// Creates an empty table ordered by `policy`.
  @inlinable
  init(policy: WindowTinyLFU, recorder: StatisticsRecorder?, hub: EventHub<Key>) {
    self.policy = policy
    self.recorder = recorder
    self.hub = hub
  }

  /// Records `event` for the observers, if there are any.
  @inlinable
  mutating func note(_ event: @autoclosure () -> CacheEvent<Key>) {
    if hub.isObserved { pendingEvents.append(event()) }
  }

  /// Hands the recorded events to the observers (called before the lock is given up).
  @inlinable
  mutating func flushEvents() {
    guard !pendingEvents.isEmpty else { return }
    hub.emit(pendingEvents)
    pendingEvents = []
  }

  /// `now`, or the latest time seen if that is later.
  @inlinable
  mutating func observe(_ now: Int64) -> Int64 {
    if now > latest { latest = now }
    return latest
  }

  /// A completed future with the value stored under `key`, recording the use, or
  /// nil when there is none or it has expired (it is then removed). `clock` is read
  /// only when the value has a deadline.
  @inlinable
  mutating func future(for key: Key, clock: any CacheClock) -> Future<Value>? {
    guard let slot = index[key] else {
      recordMiss(key)
      return nil
    }
    let deadline = wheel.deadline(of: slot)
    if deadline != TimerWheel.none {
      let now = observe(clock.nanoseconds())
      guard now < deadline else {
        expire(now: now, due: slot)
        recordMiss(key)
        return nil
      }
      let slide = sliding[slot]
      if slide > 0 {
        wheel.schedule(
          slot, at: CacheInstant(nanoseconds: now).adding(nanoseconds: slide).nanoseconds)
      }
    }
    policy.recordHit(slot)
    switch values[slot] {
    case .future(let future)?:
      return future
    case .value(let value)?:
      let future = Future(value)
      values[slot] = .future(future)
      return future
    case nil:
      return nil  // unreachable: an indexed slot always holds a value
    }
  }

  /// Tells the policy about a miss of `key`, with its hash when the policy samples misses.
  @inlinable
  mutating func recordMiss(_ key: Key) {
    if policy.samplesMisses {
      policy.recordMiss(hash: UInt64(bitPattern: Int64(key.hashValue)))
    } else {
      policy.recordMiss()
    }
  }

  /// Stores `value` under `key` with cost `cost` (at least 1, at most the
  /// capacity) at time `now`, to expire at `deadline` (``TimerWheel/none``: never)
  /// and, when `slide` is positive, `slide` nanoseconds after each read; first
  /// removes the expired entries, then evicts other entries until the total cost fits.
  @inlinable
  mutating func store(
    _ value: Value, cost: Int, hash: UInt64, for key: Key,
    now: Int64, deadline: Int64, slide: Int64
  ) {
    removeExpired(now: now)
    let slot = store(value, cost: cost, hash: hash, for: key)
    storedAt[slot] = now
    sliding[slot] = slide
    wheel.schedule(slot, at: deadline)
    note(.set(key))
    policy.evict(pinned: slot, into: &evicted)
    while let evictee = evicted.popLast() {
      recorder?.recordEviction(cost: policy.nodes[evictee].cost)
      if let key = keys[evictee] { note(.evicted(key)) }
      release(evictee)
    }
  }

  /// Places `value` under `key`, in a new slot or the key's old one; returns the slot.
  @inlinable
  mutating func store(_ value: Value, cost: Int, hash: UInt64, for key: Key) -> Int {
    let fresh = freeSlots.last ?? keys.count
    var isNew = false
    let slot = Self.claim(&index[key, default: -1], fresh: fresh, isNew: &isNew)
    if isNew {
      if slot == keys.count {
        keys.append(key)
        values.append(.value(value))
        storedAt.append(0)
        sliding.append(0)
      } else {
        freeSlots.removeLast()
        keys[slot] = key
        values[slot] = .value(value)
      }
      policy.insert(slot, cost: cost, hash: hash)
    } else {
      values[slot] = .value(value)
      policy.update(slot, cost: cost)
    }
    return slot
  }

  /// Removes the entries whose deadline is at or before `now`: all of them when
  /// `exact`, otherwise those due before the wheel's current tick (cheaper).
  @inlinable
  mutating func removeExpired(now: Int64, exact: Bool = false) {
    wheel.advance(to: now, exact: exact, expired: &evicted)
    while let expired = evicted.popLast() {
      if let key = keys[expired] { note(.expired(key)) }
      policy.remove(expired)
      release(expired)
    }
  }

  /// Removes the entries due by `now`, `due` among them (its deadline has passed).
  @inlinable
  mutating func expire(now: Int64, due slot: Int) {
    if let key = keys[slot] { note(.expired(key)) }
    policy.remove(slot)
    release(slot)
    removeExpired(now: now)
  }

  /// The value stored under `key` with its times, recording the use like a get.
  @inlinable
  mutating func entry(for key: Key, clock: any CacheClock) -> CacheEntry<Value>? {
    guard let future = future(for: key, clock: clock), let slot = index[key],
      case .success(let value)? = future.result
    else { return nil }
    let deadline = wheel.deadline(of: slot)
    return CacheEntry(
      value: value,
      storedAt: CacheInstant(nanoseconds: storedAt[slot]).date,
      expiresAt: deadline == TimerWheel.none ? nil : CacheInstant(nanoseconds: deadline).date
    )
  }

  /// Reads the slot of a key in the dictionary, giving the key slot `fresh`
  /// when it had none.
  @inlinable
  static func claim(_ entry: inout Int, fresh: Int, isNew: inout Bool) -> Int {
    if entry < 0 {
      entry = fresh
      isNew = true
    }
    return entry
  }

  /// Removes the entry stored under `key`, if any.
  @inlinable
  mutating func removeValue(for key: Key) {
    guard let slot = index[key] else { return }
    note(.removed(key))
    policy.remove(slot)
    release(slot)
  }

  /// Frees a slot the policy no longer holds.
  @inlinable
  mutating func release(_ slot: Int) {
    wheel.unschedule(slot)
    if let key = keys[slot].take() {
      index.removeValue(forKey: key)
    }
    values[slot] = nil
    freeSlots.append(slot)
  }

  /// The sum of the costs of the stored values.
  @inlinable
  var totalCost: Int { policy.totalCost }

  /// The number of stored values.
  @inlinable
  var count: Int { index.count }

  /// Empties the table and returns what it held, so the caller can release the
  /// values outside the lock.
  @inlinable
  mutating func takeAll() -> EntryTable {
    var emptied = EntryTable(policy: policy, recorder: recorder, hub: hub)
    emptied.policy.removeAll()
    emptied.latest = latest
    emptied.wheel.time = wheel.time
    swap(&self, &emptied)
    return emptied
  }
}

extension EntryTable: Sendable where Key: Sendable {}
extension EntryTable.Stored: Sendable {}
