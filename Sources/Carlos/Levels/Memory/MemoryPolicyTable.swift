/// The side of a ``MemoryCacheLevel`` that writers share, behind one lock: the
/// eviction policy and its slots, the timer wheel of expiring entries, and the
/// events waiting to be handed to observers.
///
/// Readers never take this lock: they find values in the shards and leave notes
/// in the read buffers, which whoever holds this lock drains. Writers (set,
/// remove, clear, expiry) take this lock, then the lock of the shard they change.
/// Free slots are reused, so steady-state operation allocates nothing.
@usableFromInline
struct MemoryPolicyTable<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  /// The key in each slot (`nil` for a free slot).
  @usableFromInline var keys: ContiguousArray<Key?> = []
  /// The hash of each slot's key (its shard is found from it).
  @usableFromInline var hashes: ContiguousArray<Int> = []
  /// Bumped each time a slot is freed, so notes about its former key are ignored.
  @usableFromInline var generations: ContiguousArray<UInt32> = []
  /// Whether each slot holds an entry (checked without touching the generic keys).
  @usableFromInline var occupied: ContiguousArray<Bool> = []
  /// The shard entry of each slot, reused with the slot.
  @usableFromInline var entries: ContiguousArray<ShardEntry<Value>?> = []
  /// Slots that hold nothing and can be reused.
  @usableFromInline var freeSlots: [Int] = []
  /// Scratch space for evicted or expired slots.
  @usableFromInline var evicted: [Int] = []
  /// Scratch space for the notes drained from the read buffers.
  @usableFromInline var drained: [Int] = []
  @usableFromInline var policy: WindowTinyLFU
  /// The deadlines of the slots that expire (never later than their shard entry's).
  @usableFromInline var wheel = TimerWheel(time: .min)
  /// The level's shards, to remove evicted and expired entries from.
  @usableFromInline let shards: [MemoryShard<Key, Value>]
  /// Counts evictions, when the level records statistics.
  @usableFromInline let recorder: StatisticsRecorder?
  /// The level's observers.
  @usableFromInline let hub: EventHub<Key>
  /// Events of the operation under way, handed to the hub before the lock is given up.
  @usableFromInline var pendingEvents: [CacheEvent<Key>] = []
  /// The number of stored values.
  @usableFromInline var count = 0

  @inlinable
  init(
    policy: WindowTinyLFU, shards: [MemoryShard<Key, Value>], recorder: StatisticsRecorder?,
    hub: EventHub<Key>
  ) {
    self.policy = policy
    self.shards = shards
    self.recorder = recorder
    self.hub = hub
    drained.reserveCapacity(ReadBuffers.capacity * ReadBuffers.stripeCount)
  }

  /// The shard of a key with hash `hash`.
  @inlinable
  static func shardIndex(_ hash: Int, shardCount: Int) -> Int {
    Int(truncatingIfNeeded: UInt64(UInt(bitPattern: hash)) &* 0x9E37_79B9_7F4A_7C15 >> 58)
      & (shardCount - 1)
  }

  @inlinable
  func shard(_ hash: Int) -> MemoryShard<Key, Value> {
    shards[Self.shardIndex(hash, shardCount: shards.count)]
  }

  // MARK: Events

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

  // MARK: Reads

  /// Applies the notes readers left in `buffers`, in order; notes about slots
  /// freed or reused since are ignored.
  @inlinable
  mutating func drain(_ buffers: ReadBuffers) {
    buffers.drain(into: &drained)
    var index = 0
    while index < drained.count {
      let note = drained[index]
      index += 1
      if note == ReadBuffers.missMarker {
        guard index < drained.count else { break }
        let hash = UInt64(bitPattern: Int64(drained[index]))
        index += 1
        if policy.samplesMisses { policy.recordMiss(hash: hash) } else { policy.recordMiss() }
        continue
      }
      let (slot, generation) = ReadBuffers.decodeHit(note)
      guard slot < occupied.count, occupied[slot],
        generations[slot] & 0x3FFF_FFFF == generation
      else { continue }
      policy.recordHit(slot)
    }
    drained.removeAll(keepingCapacity: true)
  }

  // MARK: Writes

  /// Stores `value` under `key` (hash `hash`) with cost `cost` at time `now`, to
  /// expire at `deadline` (``TimerWheel/none``: never) and `slide` nanoseconds
  /// after each read when `slide` is positive; first removes the expired entries,
  /// then evicts other entries until the total cost fits.
  @inlinable
  mutating func store(
    _ value: Value, key: Key, hash: Int, cost: Int, now: Int64, deadline: Int64, slide: Int64
  ) {
    removeExpired(now: now)
    let fresh = freeSlots.last ?? keys.count
    let generation = fresh < generations.count ? generations[fresh] : 0
    let reusable = fresh < entries.count ? entries[fresh] : nil
    let (slot, created) = shard(hash).entries.withLock {
      shardEntries -> (Int, ShardEntry<Value>?) in
      let hashed = HashedKey(key, hash: hash)
      if let existing = shardEntries[hashed] {
        existing.fill(
          value: value, generation: existing.generation, deadline: deadline, slide: slide,
          storedAt: now)
        return (existing.slot, nil)
      }
      let entry = reusable ?? ShardEntry(value: value, slot: fresh)
      entry.fill(
        value: value, generation: generation, deadline: deadline, slide: slide, storedAt: now)
      shardEntries[hashed] = entry
      return (fresh, entry)
    }
    if let created {
      if slot == keys.count {
        keys.append(key)
        hashes.append(hash)
        generations.append(0)
        occupied.append(true)
        entries.append(created)
      } else {
        freeSlots.removeLast()
        keys[slot] = key
        hashes[slot] = hash
        occupied[slot] = true
      }
      count += 1
      policy.insert(slot, cost: cost, hash: UInt64(bitPattern: Int64(hash)))
    } else {
      policy.update(slot, cost: cost)
    }
    wheel.schedule(slot, at: deadline)
    note(.set(key))
    policy.evict(pinned: slot, into: &evicted)
    while let evictee = evicted.popLast() {
      recorder?.recordEviction(cost: policy.nodes[evictee].cost)
      if let key = keys[evictee] {
        note(.evicted(key))
        _ = shard(hashes[evictee]).entries.withLock { entries in
          entries.removeValue(forKey: HashedKey(key, hash: hashes[evictee]))
        }
      }
      release(evictee)
    }
  }

  /// Removes the entry of `key` (hash `hash`), if any.
  @inlinable
  mutating func removeValue(for key: Key, hash: Int) {
    let removed = shard(hash).entries.withLock { entries in
      entries.removeValue(forKey: HashedKey(key, hash: hash))
    }
    guard let removed else { return }
    note(.removed(key))
    policy.remove(removed.slot)
    release(removed.slot)
  }

  /// Removes the entries whose deadline is at or before `now`: all of them when
  /// `exact`, otherwise those due before the wheel's current tick (cheaper). An
  /// entry whose life a read extended meanwhile is scheduled again instead.
  @inlinable
  mutating func removeExpired(now: Int64, exact: Bool = false) {
    wheel.advance(to: now, exact: exact, expired: &evicted)
    while let due = evicted.popLast() {
      guard let key = keys[due] else { continue }
      let hashed = HashedKey(key, hash: hashes[due])
      let extended: Int64? = shard(hashes[due]).entries.withLock { entries in
        guard let index = entries.index(forKey: hashed) else { return nil }
        let deadline = entries.values[index].deadline  // a reference: no copy
        if deadline > now { return deadline }
        entries.remove(at: index)
        return nil
      }
      if let extended {
        wheel.schedule(due, at: extended)
        continue
      }
      note(.expired(key))
      policy.remove(due)
      release(due)
    }
  }

  /// Frees a slot the policy no longer holds (its shard entry is gone already).
  @inlinable
  mutating func release(_ slot: Int) {
    wheel.unschedule(slot)
    entries[slot]?.stored = .empty
    keys[slot] = nil
    occupied[slot] = false
    generations[slot] &+= 1
    freeSlots.append(slot)
    count -= 1
  }

  /// Empties the level and returns the shards' entries, so the caller can
  /// release the values outside the locks.
  @inlinable
  mutating func removeAll() -> [[HashedKey<Key>: ShardEntry<Value>]] {
    let emptied = shards.map { shard in
      shard.entries.withLock { entries in
        defer { entries = [:] }
        return entries
      }
    }
    policy.removeAll()
    let time = wheel.time
    wheel = TimerWheel(time: time)
    // The policy starts again from slot 0. A note left by a reader since the
    // drain may name a slot that a new key takes again: it then credits that key
    // with one read, which is harmless.
    keys = []
    hashes = []
    generations = []
    occupied = []
    entries = []
    freeSlots = []
    count = 0
    return emptied
  }

  /// The sum of the costs of the stored values.
  @inlinable
  var totalCost: Int { policy.totalCost }
}
