/// The one record per entry of a ``MemoryCacheLevel``: the eviction policy's
/// ``AccessOrderNode`` (cost, hash, region, links, and the slot's generation and
/// flags) followed by the entry's key, value and times, in the level's
/// ``NodeStore``, numbered by slot.
///
/// A read finds the slot in its shard's index (``EntryShard``) and reads the record;
/// the policy reaches the same record by slot. Records never move, so the index
/// holds only slots. The policy's fields are written under the policy's lock; the
/// entry's fields (``Entry``), the generation and the flags under the policy's lock
/// *and* the shard's, so a reader holding only the shard's lock sees them whole
/// (see ``SlotTable``). A record's entry is initialized while the slot is in a
/// shard's index, and only then.
@usableFromInline
struct EntryRecords<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
  // @unchecked: see above; the store's pages never move.

  /// What a record holds besides the policy's node; what a hit reads comes first.
  @usableFromInline
  struct Entry {
    @usableFromInline var key: Key
    @usableFromInline var value: Value
    /// When the value expires (``TimerWheel/none``: never); reads move it when the entry slides.
    @usableFromInline var deadline: Int64
    /// The completed future readers share (small shards), made by the first read of `value`.
    @usableFromInline var future: Future<Value>?
    /// When the value was stored, in nanoseconds since 1970.
    @usableFromInline var storedAt: Int64

    @inlinable
    init(key: Key, value: Value, deadline: Int64, storedAt: Int64) {
      self.key = key
      self.value = value
      self.deadline = deadline
      self.future = nil
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

  /// The records (and the policy's nodes).
  @usableFromInline let store: NodeStore

  /// Creates an empty store of records.
  @usableFromInline
  init() {
    precondition(MemoryLayout<Entry>.alignment <= 64, "values aligned beyond a cache line")
    store = NodeStore(stride: Self.stride, nodeOffset: 0)
  }

  /// The records of `store` (made by ``init()``).
  @inlinable
  init(_ store: NodeStore) {
    self.store = store
  }

  /// The node of slot `slot`.
  @inlinable
  func node(_ slot: Int) -> UnsafeMutablePointer<AccessOrderNode> {
    store.record(slot).assumingMemoryBound(to: AccessOrderNode.self)
  }

  /// The entry of slot `slot` (initialized only while the slot is indexed).
  @inlinable
  func entry(_ slot: Int) -> UnsafeMutablePointer<Entry> {
    (store.record(slot) + Self.entryOffset).assumingMemoryBound(to: Entry.self)
  }

  /// Initializes the entry of slot `slot`.
  @inlinable
  func initialize(_ slot: Int, to entry: consuming Entry) {
    (store.record(slot) + Self.entryOffset).bindMemory(to: Entry.self, capacity: 1).initialize(
      to: entry)
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
