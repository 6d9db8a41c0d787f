/// The side of a ``MemoryCacheLevel`` that decides, guarded by the level's policy
/// lock: a slot for every entry, the eviction policy that orders the slots, the
/// timer wheel of their deadlines, and the events for the observers. Each slot is
/// one record (``EntryRecords``: the policy's node, then the entry), which the
/// level's ``ShardSet`` indexes by key; every change to an entry or to the index
/// is made here, under this lock and then the shard's, so the two always agree.
///
/// Free slots are reused, so steady-state operation allocates nothing. A slot's
/// generation (in its node) changes when it is freed, so a read recorded for an
/// entry that has since left (see ``ReadTicket``) is recognised and ignored.
@usableFromInline
struct SlotTable<Key: Hashable & Sendable, Value: Sendable> {
  @usableFromInline typealias Shards = ShardSet<Key, Value>

  @usableFromInline var policy: WindowTinyLFU
  /// The level's records, whose nodes are the policy's (`policy.nodes`).
  @usableFromInline let records: EntryRecords<Key, Value>
  /// Slots that hold nothing and can be reused.
  @usableFromInline var freeSlots: [Int] = []
  /// Scratch space for the slots evicted or expired by one operation (kept to avoid allocating).
  @usableFromInline var evicted: [Int] = []
  /// The deadlines of the slots that expire.
  @usableFromInline var wheel = TimerWheel(time: .min)
  /// The latest time seen: the level never lets time go backwards.
  @usableFromInline var latest: Int64 = .min
  /// Counts evictions, when the level records statistics.
  @usableFromInline let recorder: StatisticsRecorder?
  /// The level's observers.
  @usableFromInline let hub: EventHub<Key>
  /// Events of the operation under way, handed to the hub before the lock is given up.
  @usableFromInline var pendingEvents: [CacheEvent<Key>] = []
  /// The notes one drain took from the read buffer (kept to avoid allocating).
  @usableFromInline var batch: [ReadBuffer.Note] = []
  /// Where ``warm()`` puts what it loads; never read.
  @usableFromInline var warmth: UInt64 = 0

  /// Creates an empty table ordered by `policy`, whose nodes are those of `records`.
  @inlinable
  init(
    policy: WindowTinyLFU, records: EntryRecords<Key, Value>, recorder: StatisticsRecorder?,
    hub: EventHub<Key>
  ) {
    self.policy = policy
    self.records = records
    self.recorder = recorder
    self.hub = hub
  }

  // MARK: Events and time

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

  // MARK: Reads

  /// Tells the policy about the reads and updates recorded in `reads` (only those
  /// of the stripe of thread number `thread`, when given), in order.
  ///
  /// The notes are taken out first, and the cache lines their entries' bookkeeping
  /// lives on are asked for all at once (see ``warm()``), so that at sizes beyond
  /// the processor's caches the misses overlap instead of coming one by one.
  @inlinable
  mutating func drain(_ reads: borrowing ReadBuffer, thread: Int? = nil) {
    guard policy.nodes.count >= Self.warmingSlots else {
      reads.drain(thread: thread) { note in apply(note) }
      return
    }
    batch.removeAll(keepingCapacity: true)
    reads.drain(thread: thread) { note in batch.append(note) }
    guard !batch.isEmpty else { return }
    warm()
    for index in batch.indices { apply(batch[index]) }
  }

  /// From this many slots on, a drain loads the lines its notes need before it
  /// applies them (``warm()``): below, the policy's arrays stay in the processor's
  /// caches and warming would only add work.
  @inlinable
  static var warmingSlots: Int { 16_384 }

  /// Tells the policy about one note of the read buffer.
  @inlinable
  mutating func apply(_ note: ReadBuffer.Note) {
    switch note {
    case .hit(let ticket):
      if isCurrent(ticket) { policy.recordHit(ReadTicket.slot(ticket)) }
    case .update(let ticket):
      update(ticket: ticket)
    case .miss(let hash):
      recordMiss(hash: hash)
    }
  }

  /// Whether `ticket` names a slot in the generation it is in now (the entry the
  /// ticket was made for is still there).
  @inlinable
  func isCurrent(_ ticket: UInt64) -> Bool {
    let slot = ReadTicket.slot(ticket)
    return slot < policy.nodes.count
      && policy.nodes[slot].generation == ReadTicket.generation(ticket)
  }

  /// Loads, for every hit in `batch`, its slot's record (generation and policy node), then
  /// the nodes it is linked to and its frequency counters: the loads of one round
  /// do not depend on each other, so the processor fetches their lines in
  /// parallel, and applying the notes then finds them in its caches. The loaded
  /// values only go to `warmth`.
  @inlinable
  mutating func warm() {
    var sink: UInt64 = 0
    for index in batch.indices {
      guard case .hit(let ticket) = batch[index] else { continue }
      sink &+= policy.warmNode(ReadTicket.slot(ticket))
    }
    for index in batch.indices {
      guard case .hit(let ticket) = batch[index] else { continue }
      sink &+= policy.warmNeighbours(ReadTicket.slot(ticket))
    }
    warmth = sink
  }

  /// Tells the policy about a miss of a key whose hash is `hash`.
  @inlinable
  mutating func recordMiss(hash: UInt64) {
    if policy.samplesMisses {
      policy.recordMiss(hash: hash)
    } else {
      policy.recordMiss()
    }
  }

  // MARK: Writes

  /// The ticket of the entry in `slot`.
  @inlinable
  func ticket(of slot: Int) -> UInt64 {
    ReadTicket.make(slot: slot, generation: policy.nodes[slot].generation)
  }

  /// Stores `value` under `key` (whose hash is `hash`) with cost `cost` (at least 1,
  /// at most the capacity) at time `now`, to expire at `deadline`
  /// (``TimerWheel/none``: never) and, when `slide` is positive, `slide`
  /// nanoseconds after each read; first removes the expired entries, then evicts
  /// other entries until the total cost fits.
  @inlinable
  mutating func store(
    _ value: Value, cost: Int, hash: Int, for key: Key,
    now: Int64, deadline: Int64, slide: Int64, in shards: borrowing Shards
  ) {
    warmth = policy.warmInsert(UInt64(bitPattern: Int64(hash)))
    removeExpired(now: now, in: shards)
    reserveSlot(in: shards)
    let records = records
    let flags = slide > 0 ? EntryRecords<Key, Value>.slidesFlag : 0
    // The policy's calls happen under the shard's lock too: they write the node's
    // cost, which a same-cost replacement reads under the shard's lock alone.
    var grows = true
    let slot = shards.withShard(hash: hash) { shard -> Int in
      if let bucket = shard.find(key, hash: hash, in: records) {
        let slot = shard.slot(at: bucket)
        let entry = records.entry(slot)
        entry.pointee.value = value
        records.dropFuture(slot)
        entry.pointee.storedAt = now
        entry.pointee.deadline = deadline
        records.node(slot).pointee.flags = flags
        grows = cost > policy.nodes[slot].cost
        policy.update(slot, cost: cost)
        return slot
      }
      let slot = claimSlot()
      records.initialize(slot, to: .init(key: key, value: value, deadline: deadline, storedAt: now))
      records.node(slot).pointee.flags = flags
      shard.insert(slot: slot, hash: hash)
      policy.insert(slot, cost: cost, hash: UInt64(bitPattern: Int64(hash)))
      return slot
    }
    // The wheel keeps per-slot arrays: a value that never expires stays out of them.
    if deadline == TimerWheel.none {
      wheel.unschedule(slot)
    } else {
      wheel.schedule(slot, at: deadline)
    }
    note(.set(key))
    // The total fitted before; only a new entry or a costlier value can overflow it.
    guard grows else { return }
    policy.evict(pinned: slot, into: &evicted)
    while let evictee = evicted.popLast() {
      recorder?.recordEviction(cost: policy.nodes[evictee].cost)
      let key = removeEntry(in: evictee, from: shards)
      if let key { note(.evicted(key)) }
    }
  }

  /// Tells the policy that the entry with `ticket` (if it is still stored) got a
  /// new value of the same cost, as ``store(_:cost:hash:for:now:deadline:slide:in:)``
  /// does for a value that replaces another (nothing to evict: the total is unchanged).
  @inlinable
  mutating func update(ticket: UInt64) {
    guard isCurrent(ticket) else { return }
    let slot = ReadTicket.slot(ticket)
    policy.update(slot, cost: policy.nodes[slot].cost)
  }

  /// A free slot for a new entry (the policy's node for it keeps the key's hash);
  /// ``reserveSlot(in:)`` must have made sure the records need not move.
  @inlinable
  mutating func claimSlot() -> Int {
    if let free = freeSlots.popLast() { return free }
    assert(!policy.nodes.isFull, "claimSlot without reserveSlot")
    return policy.nodes.append()
  }

  /// Makes sure ``claimSlot()`` can claim a slot without moving the records: when
  /// no slot is free and the records' buffer is full, doubles it while holding
  /// every shard's lock (readers find records through the shards). Rare: once per
  /// doubling of the number of entries.
  @inlinable
  mutating func reserveSlot(in shards: borrowing Shards) {
    guard freeSlots.isEmpty, policy.nodes.isFull else { return }
    if _isBitwiseTakable(EntryRecords<Key, Value>.Entry.self) {
      shards.withEveryShard(visiting: { _ in }) { policy.nodes.grow() }
      return
    }
    // Entries that cannot be moved by copying their bytes: every indexed slot's
    // entry is moved properly after the copy.
    var indexed: [Int] = []
    shards.withEveryShard(visiting: { shard in
      for bucket in 0...shard.mask where shard.buckets[bucket] != 0 {
        indexed.append(shard.slot(at: bucket))
      }
    }) {
      policy.nodes.grow { old, new in
        for slot in indexed {
          let offset = slot * EntryRecords<Key, Value>.stride + EntryRecords<Key, Value>.entryOffset
          (new + offset).assumingMemoryBound(to: EntryRecords<Key, Value>.Entry.self)
            .moveInitialize(
              from: (old + offset).assumingMemoryBound(to: EntryRecords<Key, Value>.Entry.self),
              count: 1)
        }
      }
    }
  }

  /// The hash of the key of the entry in `slot` (or of the last one it held),
  /// which finds the entry's shard: the policy's node of the slot keeps it.
  @inlinable
  func hash(of slot: Int) -> Int {
    Int(truncatingIfNeeded: policy.nodes[slot].hash)
  }

  /// Removes the entry in `slot` from its shard and frees the slot (the policy
  /// must no longer hold it); returns the entry's key.
  @inlinable
  mutating func removeEntry(in slot: Int, from shards: borrowing Shards) -> Key? {
    let hash = hash(of: slot)
    let records = records
    let key = shards.withShard(hash: hash) { shard -> Key? in
      guard let bucket = shard.find(slot: slot, hash: hash) else { return nil }
      shard.remove(at: bucket)
      return records.take(slot).key
    }
    release(slot)
    return key
  }

  /// Frees a slot whose entry has left.
  @inlinable
  mutating func release(_ slot: Int) {
    wheel.unschedule(slot)
    policy.nodes[slot].generation = (policy.nodes[slot].generation &+ 1) & 0x7FFF_FFFF
    freeSlots.append(slot)
  }

  /// Removes the entries whose deadline is at or before `now`: all of them when
  /// `exact`, otherwise those due before the wheel's current tick (cheaper).
  /// An entry whose reads moved its deadline is scheduled again instead.
  @inlinable
  mutating func removeExpired(now: Int64, exact: Bool = false, in shards: borrowing Shards) {
    wheel.advance(to: now, exact: exact, expired: &evicted)
    while let slot = evicted.popLast() {
      expire(slot, now: now, in: shards)
    }
  }

  /// Removes the entry in `slot` if its deadline is at or before `now`; schedules
  /// it again at its deadline otherwise.
  @inlinable
  mutating func expire(_ slot: Int, now: Int64, in shards: borrowing Shards) {
    let hash = hash(of: slot)
    let records = records
    var later = TimerWheel.none
    let key = shards.withShard(hash: hash) { shard -> Key? in
      guard let bucket = shard.find(slot: slot, hash: hash) else { return nil }
      let deadline = records.entry(slot).pointee.deadline
      guard deadline <= now else {
        later = deadline
        return nil
      }
      shard.remove(at: bucket)
      return records.take(slot).key
    }
    if later != TimerWheel.none {
      wheel.schedule(slot, at: later)
      return
    }
    if let key { note(.expired(key)) }
    policy.remove(slot)
    release(slot)
  }

  /// Removes the entry a reader found expired at `now` (unless it has been
  /// replaced since), and the other entries due by then.
  @inlinable
  mutating func expire(ticket: UInt64, now: Int64, in shards: borrowing Shards) {
    if isCurrent(ticket) { expire(ReadTicket.slot(ticket), now: now, in: shards) }
    removeExpired(now: now, in: shards)
  }

  /// Whether the shard holds a value for `key` (whose hash is `hash`) that has
  /// not expired at `now`.
  @inlinable
  func holdsLiveValue(
    for key: Key, hash: Int, now: Int64, in shards: borrowing Shards
  ) -> Bool {
    shards.withShard(hash: hash) { [records] shard -> Bool in
      guard let bucket = shard.find(key, hash: hash, in: records) else { return false }
      return now < records.entry(shard.slot(at: bucket)).pointee.deadline
    }
  }

  /// Removes the entry stored under `key` (whose hash is `hash`), if any.
  @inlinable
  mutating func removeValue(for key: Key, hash: Int, in shards: borrowing Shards) {
    let slot = shards.withShard(hash: hash) { [records] shard -> Int? in
      guard let bucket = shard.find(key, hash: hash, in: records) else { return nil }
      let slot = shard.remove(at: bucket)
      records.destroy(slot)
      return slot
    }
    guard let slot else { return }
    note(.removed(key))
    policy.remove(slot)
    release(slot)
  }

  /// Empties the table and every shard, and lets go of the threads' spare futures.
  @inlinable
  mutating func removeAll(from shards: borrowing Shards) {
    for index in 0..<shards.count {
      shards.withShard(at: index) { [records] in $0.removeAll(in: records) }
    }
    shards.withEveryShard(visiting: { _ in }) { [records] in records.dropSpares() }
    policy.removeAll()
    wheel.removeAll()
    freeSlots.removeAll(keepingCapacity: true)
    for slot in (0..<policy.nodes.count).reversed() {
      policy.nodes[slot].generation = (policy.nodes[slot].generation &+ 1) & 0x7FFF_FFFF
      freeSlots.append(slot)
    }
  }

  /// The sum of the costs of the stored values.
  @inlinable
  var totalCost: Int { policy.totalCost }

  /// The number of stored values.
  @inlinable
  var count: Int { policy.count }
}

extension SlotTable: Sendable where Key: Sendable {}
