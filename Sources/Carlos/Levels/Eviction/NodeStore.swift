/// Where the eviction policy's ``AccessOrderNode``s live: fixed-size records
/// numbered by slot, each holding one node at the same offset, in one buffer.
///
/// Standing alone (``init()``), a record is just the node. A ``MemoryCacheLevel``
/// makes its records larger (``init(stride:nodeOffset:)``): each holds the entry's
/// key, value and times next to the policy's node, so one record is all there is
/// of an entry, and a read, the policy's bookkeeping and the shard's index all
/// name it by slot.
///
/// A slot's address is the buffer's start, read from a cell that never moves, plus
/// the slot times the stride. The buffer doubles when full (``grow(fixUp:)``):
/// the owner must then keep everyone who reads records out (a level holds every
/// shard's lock). Only the claimed slots' records are written, so the buffer's
/// tail is not resident until slots reach it. Freed when the last copy of the
/// store goes.
@usableFromInline
struct NodeStore: @unchecked Sendable {
  // @unchecked: the buffer is written only by whoever owns the slots (the policy's
  // lock in a level, see ``SlotTable``); `start` never moves.

  /// Owns the buffer.
  @usableFromInline
  final class Buffer: @unchecked Sendable {
    /// Where the records start.
    @usableFromInline let start: UnsafeMutablePointer<UnsafeMutableRawPointer>

    @usableFromInline
    init(byteCount: Int) {
      start = .allocate(capacity: 1)
      start.initialize(to: .allocate(byteCount: byteCount, alignment: 64))
    }

    deinit {
      start.pointee.deallocate()
      start.deallocate()
    }
  }

  /// The records of a new store.
  @usableFromInline static var initialCapacity: Int { 16 }

  /// Owns the buffer when the store stands alone (``init()``); nil in a level's
  /// store, which its owner frees (``deallocate()``), so that copying the store
  /// (every write copies the level's records) touches no reference count.
  @usableFromInline let buffer: Buffer?
  /// Where the records start (the cell never moves).
  @usableFromInline let start: UnsafeMutablePointer<UnsafeMutableRawPointer>
  /// Bytes from one record to the next, and where the node sits in a record.
  @usableFromInline let stride: Int
  @usableFromInline let nodeOffset: Int
  /// The number of slots claimed (slots `0..<count` have a node).
  @usableFromInline var count = 0
  /// The number of records the buffer holds.
  @usableFromInline var capacity = NodeStore.initialCapacity

  /// A store whose records are just nodes (the policy standing alone).
  @inlinable
  init() {
    let stride = MemoryLayout<AccessOrderNode>.stride
    let buffer = Buffer(byteCount: Self.initialCapacity * stride)
    self.buffer = buffer
    start = buffer.start
    self.stride = stride
    nodeOffset = 0
  }

  /// A store of records of `stride` bytes (a multiple of 8) with the node `nodeOffset`
  /// bytes into each (a multiple of 8), which the caller frees with ``deallocate()``.
  @inlinable
  init(stride: Int, nodeOffset: Int) {
    precondition(stride % 8 == 0 && nodeOffset % 8 == 0)
    precondition(nodeOffset + MemoryLayout<AccessOrderNode>.size <= stride)
    buffer = nil
    start = .allocate(capacity: 1)
    start.initialize(to: .allocate(byteCount: Self.initialCapacity * stride, alignment: 64))
    self.stride = stride
    self.nodeOffset = nodeOffset
  }

  /// Frees a store made by ``init(stride:nodeOffset:)`` (every copy of it is done).
  @inlinable
  func deallocate() {
    precondition(buffer == nil, "the store frees itself")
    start.pointee.deallocate()
    start.deallocate()
  }

  /// The start of slot `slot`'s record (`slot` must be below ``count``).
  @inlinable
  func record(_ slot: Int) -> UnsafeMutableRawPointer {
    start.pointee + slot &* stride
  }

  /// Slot `slot`'s node.
  @inlinable
  func node(_ slot: Int) -> UnsafeMutablePointer<AccessOrderNode> {
    (record(slot) + nodeOffset).assumingMemoryBound(to: AccessOrderNode.self)
  }

  @inlinable
  subscript(slot: Int) -> AccessOrderNode {
    unsafeAddress { UnsafePointer(node(slot)) }
    nonmutating unsafeMutableAddress { node(slot) }
  }

  /// Whether claiming a slot would move the records.
  @inlinable
  var isFull: Bool { count == capacity }

  /// Claims the next slot, with a node of generation 0 that belongs to no list;
  /// doubles the buffer first when it is full (see ``grow(fixUp:)``).
  @inlinable
  @discardableResult
  mutating func append() -> Int {
    if isFull { grow() }
    let slot = count
    precondition(slot < 0x7FFF_FFFE, "a memory level holds fewer than 2³¹ − 2 entries")
    (record(slot) + nodeOffset).bindMemory(to: AccessOrderNode.self, capacity: 1).initialize(
      to: AccessOrderNode(cost: 1, hash: 0, region: .window))
    count = slot &+ 1
    return slot
  }

  /// Doubles the buffer, copying the claimed records' bytes. `fixUp`, when given,
  /// is called with the old and the new start before the old buffer is freed (for
  /// records whose contents cannot be moved by copying their bytes).
  @inlinable
  mutating func grow(
    fixUp: ((_ old: UnsafeMutableRawPointer, _ new: UnsafeMutableRawPointer) -> Void)? = nil
  ) {
    let old = start.pointee
    let new = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2 * stride, alignment: 64)
    new.copyMemory(from: old, byteCount: count * stride)
    fixUp?(old, new)
    start.pointee = new
    capacity *= 2
    old.deallocate()
  }
}
