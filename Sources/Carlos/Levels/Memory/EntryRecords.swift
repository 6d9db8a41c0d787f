/// The one record per entry of a ``MemoryCacheLevel``: the eviction policy's
/// ``AccessOrderNode`` (cost, hash, region, links, and the slot's generation and
/// flags) followed by the entry's key, value and times, in the level's
/// ``NodeStore``, numbered by slot.
///
/// A read finds the slot in its shard's index (``EntryShard``) and reads the record;
/// the policy reaches the same record by slot. A slot keeps its number for the
/// entry's life, so the index holds only slots; the buffer moves only while every
/// shard's lock is held (see ``SlotTable/reserveSlot(in:)``). The policy's links,
/// region and uses are written under the policy's lock; the entry's fields
/// (``Entry``), the flags and the cost under the policy's lock *and* the shard's,
/// so a reader holding only the shard's lock sees them whole; the generation under
/// the policy's lock once the slot has left every index (see ``SlotTable``). A
/// record's entry is initialized while the slot is in a shard's index, and only then.
@usableFromInline
struct EntryRecords<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
  // @unchecked: see above.

  /// What a record holds besides the policy's node; what a hit reads comes first.
  @usableFromInline
  struct Entry {
    @usableFromInline var key: Key
    @usableFromInline var value: Value
    /// When the value expires (``TimerWheel/none``: never); reads move it when the entry slides.
    @usableFromInline var deadline: Int64
    /// When the value was stored, in nanoseconds since 1970.
    @usableFromInline var storedAt: Int64

    @inlinable
    init(key: Key, value: Value, deadline: Int64, storedAt: Int64) {
      self.key = key
      self.value = value
      self.deadline = deadline
      self.storedAt = storedAt
    }
  }

  /// Set in a node's flags when reads extend the value's life (after-access
  /// expiry, by the level's one duration).
  @inlinable
  static var slidesFlag: UInt8 { 1 }

  /// Where the entry sits in a record: after the node.
  @inlinable
  static var entryOffset: Int {
    let alignment = MemoryLayout<Entry>.alignment
    return (MemoryLayout<AccessOrderNode>.stride + alignment - 1) / alignment * alignment
  }

  /// Bytes per record.
  @inlinable
  static var stride: Int {
    let alignment = Swift.max(8, MemoryLayout<Entry>.alignment)
    return (entryOffset + MemoryLayout<Entry>.size + alignment - 1) / alignment * alignment
  }

  /// From this many slots on, no future is kept (see ``futures``).
  @inlinable
  static var keptFutureSlots: Int { 16_384 }

  /// The records (and the policy's nodes).
  @usableFromInline let store: NodeStore
  /// The completed future readers share, per slot below `keptFutures` (made by
  /// the first read of the value; nil until then, and after the entry leaves or
  /// its value changes). Outside the records, so that a record stays small: a
  /// level of up to `keptFutureSlots` entries allocates nothing per hit, and a
  /// larger one hands out a thread's spare future for its other slots (see
  /// ``spares``): reaching a kept future there would be one more cache miss after
  /// the record's, and ~50 bytes per read entry. Written under the lock of the
  /// shard that indexes the slot, like the entry.
  @usableFromInline let futures: UnsafeMutablePointer<Future<Value>?>
  @usableFromInline let keptFutures: Int
  /// The future each of the first ``spareThreads`` thread numbers (see
  /// ``threadStripe()``) last got for a hit of a slot that keeps none, one per
  /// cache line; allocated only when the level has such slots. When the caller
  /// has let it go, the thread's next such hit hands out the same object with the
  /// new value (``Future/reuse(_:)``) instead of allocating one: a get that reads
  /// its answer and drops it allocates nothing.
  @usableFromInline let spares: UnsafeMutableRawPointer?

  /// Creates an empty store of records for a level of `capacity` (which bounds the
  /// number of entries). ``deallocate()`` frees what this allocates besides the store.
  @usableFromInline
  init(capacity: Int) {
    precondition(MemoryLayout<Entry>.alignment <= 64, "values aligned beyond a cache line")
    store = NodeStore(stride: Self.stride, nodeOffset: 0)
    keptFutures = Swift.max(1, Swift.min(capacity, Self.keptFutureSlots))
    futures = .allocate(capacity: keptFutures)
    futures.initialize(repeating: nil, count: keptFutures)
    if capacity > Self.keptFutureSlots {
      let spares = UnsafeMutableRawPointer.allocate(
        byteCount: Self.spareThreads * 64, alignment: 64)
      for thread in 0..<Self.spareThreads {
        (spares + thread * 64).bindMemory(to: Future<Value>?.self, capacity: 1).initialize(to: nil)
      }
      self.spares = spares
    } else {
      spares = nil
    }
  }

  /// How many thread numbers have a spare future (see ``spares``).
  @inlinable
  static var spareThreads: Int { 64 }

  /// Lets go of every thread's spare future (and so of the last value each handed
  /// out). The caller holds every shard's lock: a thread reaches its spare only
  /// under the lock of the shard it reads.
  @usableFromInline
  func dropSpares() {
    guard let spares else { return }
    for thread in 0..<Self.spareThreads {
      (spares + thread * 64).assumingMemoryBound(to: Future<Value>?.self).pointee = nil
    }
  }

  /// Frees the records and the kept futures (every entry must have been taken or
  /// destroyed, and no copy be used again).
  func deallocate() {
    futures.deinitialize(count: keptFutures)
    futures.deallocate()
    if let spares {
      for thread in 0..<Self.spareThreads {
        (spares + thread * 64).assumingMemoryBound(to: Future<Value>?.self).deinitialize(count: 1)
      }
      spares.deallocate()
    }
    store.deallocate()
  }

  /// The node of slot `slot`.
  @inlinable
  func node(_ slot: Int) -> UnsafeMutablePointer<AccessOrderNode> {
    Self.node(in: store.record(slot))
  }

  /// The entry of slot `slot` (initialized only while the slot is indexed).
  @inlinable
  func entry(_ slot: Int) -> UnsafeMutablePointer<Entry> {
    Self.entry(in: store.record(slot))
  }

  /// The node of the record at `record`.
  @inlinable
  static func node(in record: UnsafeMutableRawPointer) -> UnsafeMutablePointer<AccessOrderNode> {
    record.assumingMemoryBound(to: AccessOrderNode.self)
  }

  /// The entry of the record at `record`.
  @inlinable
  static func entry(in record: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Entry> {
    (record + entryOffset).assumingMemoryBound(to: Entry.self)
  }

  /// Initializes the entry of slot `slot`.
  @inlinable
  func initialize(_ slot: Int, to entry: consuming Entry) {
    (store.record(slot) + Self.entryOffset).bindMemory(to: Entry.self, capacity: 1).initialize(
      to: entry)
  }

  /// The future of slot `slot`'s value, whose entry is `entry`, for a read by thread
  /// number `thread`: the kept one, made and kept on the first read, when the slot
  /// keeps one; otherwise the thread's spare (see ``spares``) when nothing else
  /// references it, or a new one.
  @inlinable
  func future(_ slot: Int, entry: UnsafeMutablePointer<Entry>, thread: Int) -> Future<Value> {
    guard slot < keptFutures else {
      guard let spares, thread >= 0, thread < Self.spareThreads else {
        return Future(entry.pointee.value)
      }
      let spare = (spares + thread &* 64).assumingMemoryBound(to: Future<Value>?.self)
      if isKnownUniquelyReferenced(&spare.pointee), let reused = spare.pointee {
        reused.reuse(.success(entry.pointee.value))
        return reused
      }
      let made = Future(entry.pointee.value)
      spare.pointee = made
      return made
    }
    if let kept = futures[slot] { return kept }
    let future = Future(entry.pointee.value)
    futures[slot] = future
    return future
  }

  /// Forgets slot `slot`'s kept future (its value changed, or it leaves).
  @inlinable
  func dropFuture(_ slot: Int) {
    if slot < keptFutures { futures[slot] = nil }
  }

  /// Takes slot `slot`'s entry out (deinitializing it) and returns it.
  @inlinable
  func take(_ slot: Int) -> Entry {
    dropFuture(slot)
    return entry(slot).move()
  }

  /// Deinitializes slot `slot`'s entry.
  @inlinable
  func destroy(_ slot: Int) {
    dropFuture(slot)
    entry(slot).deinitialize(count: 1)
  }

  /// The read ticket of slot `slot` in its current generation.
  @inlinable
  func ticket(_ slot: Int) -> UInt64 {
    ReadTicket.make(slot: slot, generation: node(slot).pointee.generation)
  }

  /// Whether reads extend the life of slot `slot`'s value.
  @inlinable
  func slides(_ slot: Int) -> Bool {
    node(slot).pointee.flags & Self.slidesFlag != 0
  }
}
