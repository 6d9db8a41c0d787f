/// The state of a ``MemoryCacheLevel``, guarded by its lock: the entries, stored
/// in slots found through a dictionary, and the eviction policy that orders them.
///
/// Free slots are reused, so steady-state operation allocates nothing. The first
/// read of a stored value wraps it in a completed ``Future``, which is kept in
/// place of the value and returned by every later read: a completed future can
/// never change, so sharing it is safe, and hits then allocate nothing.
@usableFromInline
struct EntryTable<Key: Hashable, Value: Sendable> {
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

  /// Creates an empty table ordered by `policy`.
  @inlinable
  init(policy: WindowTinyLFU) {
    self.policy = policy
  }

  /// A completed future with the value stored under `key`, recording the use.
  @inlinable
  mutating func future(for key: Key) -> Future<Value>? {
    guard let slot = index[key] else {
      if policy.samplesMisses {
        policy.recordMiss(hash: UInt64(bitPattern: Int64(key.hashValue)))
      } else {
        policy.recordMiss()
      }
      return nil
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

  /// Stores `value` under `key` with cost `cost` (at least 1, at most the
  /// capacity), then evicts other entries until the total cost fits.
  @inlinable
  mutating func store(_ value: Value, cost: Int, hash: UInt64, for key: Key) {
    let fresh = freeSlots.last ?? keys.count
    var isNew = false
    let slot = Self.claim(&index[key, default: -1], fresh: fresh, isNew: &isNew)
    if isNew {
      if slot == keys.count {
        keys.append(key)
        values.append(.value(value))
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
    policy.evict(pinned: slot, into: &evicted)
    while let evictee = evicted.popLast() { release(evictee) }
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
    policy.remove(slot)
    release(slot)
  }

  /// Frees a slot the policy no longer holds.
  @inlinable
  mutating func release(_ slot: Int) {
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
    var emptied = EntryTable(policy: policy)
    emptied.policy.removeAll()
    swap(&self, &emptied)
    return emptied
  }
}

extension EntryTable: Sendable where Key: Sendable {}
extension EntryTable.Stored: Sendable {}
