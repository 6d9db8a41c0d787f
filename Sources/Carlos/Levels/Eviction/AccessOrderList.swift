/// Where an entry lives in the eviction policy.
@usableFromInline
enum CacheRegion: UInt8, Sendable {
  /// The admission window (every new entry starts here).
  case window
  /// The main area's probation segment (entries not yet used again in main).
  case probation
  /// The main area's protected segment (entries used again while in main).
  case protected
}

/// The links and bookkeeping of one entry; entries live in an array or a
/// ``NodeStore`` and refer to each other by index (slot), so moving an entry
/// allocates nothing. 32 bytes.
@usableFromInline
struct AccessOrderNode: Sendable {
  // The hash comes first: in a memory level, readers holding only a shard's lock
  // read the cost, flags and generation of nodes the policy writes, and the
  // policy's writes through `NodeStore`'s subscript are, for ThreadSanitizer,
  // accesses to the node's first byte, which no reader touches.
  /// The key's hash value, kept so hits need not hash the key again.
  @usableFromInline var hash: UInt64
  /// The entry's cost (at least 1).
  @usableFromInline var cost: Int
  /// The list the entry belongs to.
  @usableFromInline var region: CacheRegion
  /// How many times the entry has been hit since it was added (at most 2).
  @usableFromInline var uses: UInt8 = 0
  /// Bits of the entry's owner that the policy never reads or writes (a memory
  /// level keeps whether reads slide the entry's expiry here).
  @usableFromInline var flags: UInt8 = 0
  /// The links, in 32 bits each (entries are fewer than 2³¹), so that a node
  /// takes 32 bytes: two fit in a cache line.
  @usableFromInline var previousLink: Int32 = -1
  @usableFromInline var nextLink: Int32 = -1
  /// The slot's generation, for the owner of the slot (see ``ReadTicket``): the
  /// policy never reads or writes it, and it outlives the entry.
  @usableFromInline var generation: UInt32 = 0

  /// The index of the entry used just before this one in the same list, or -1.
  @inlinable
  var previous: Int {
    get { Int(previousLink) }
    set { previousLink = Int32(truncatingIfNeeded: newValue) }
  }

  /// The index of the entry used just after this one in the same list, or -1.
  @inlinable
  var next: Int {
    get { Int(nextLink) }
    set { nextLink = Int32(truncatingIfNeeded: newValue) }
  }

  @inlinable
  init(cost: Int, hash: UInt64, region: CacheRegion) {
    self.hash = hash
    self.cost = cost
    self.region = region
  }
}

/// A doubly linked list of entries in access order, threaded through an array
/// of ``AccessOrderNode`` by index: the head is the least recently used entry,
/// the tail the most recently used. Every operation is O(1) and allocates nothing.
@usableFromInline
struct AccessOrderList: Sendable {
  /// The least recently used entry, or -1 when empty.
  @usableFromInline var head = -1
  /// The most recently used entry, or -1 when empty.
  @usableFromInline var tail = -1
  /// The sum of the costs of the entries in the list.
  @usableFromInline var cost = 0
  /// The number of entries in the list.
  @usableFromInline var count = 0

  @inlinable
  init() {}

  /// Adds entry `index` as the most recently used.
  @inlinable
  mutating func append(_ index: Int, _ nodes: inout ContiguousArray<AccessOrderNode>) {
    nodes.withUnsafeMutableBufferPointer { append(index, $0) }
  }

  /// Unlinks entry `index`, which must be in this list.
  @inlinable
  mutating func remove(_ index: Int, _ nodes: inout ContiguousArray<AccessOrderNode>) {
    nodes.withUnsafeMutableBufferPointer { remove(index, $0) }
  }

  /// Makes entry `index`, which must be in this list, the most recently used.
  @inlinable
  mutating func moveToBack(_ index: Int, _ nodes: inout ContiguousArray<AccessOrderNode>) {
    guard tail != index else { return }
    nodes.withUnsafeMutableBufferPointer { buffer in
      remove(index, buffer)
      append(index, buffer)
    }
  }

  /// Adds entry `index` as the most recently used.
  @inlinable
  mutating func append(_ index: Int, _ nodes: NodeStore) {
    let node = nodes.node(index)
    node.pointee.previous = tail
    node.pointee.next = -1
    if tail >= 0 {
      nodes[tail].next = index
    } else {
      head = index
    }
    tail = index
    cost += node.pointee.cost
    count += 1
  }

  /// Unlinks entry `index`, which must be in this list.
  @inlinable
  mutating func remove(_ index: Int, _ nodes: NodeStore) {
    let node = nodes.node(index)
    let previous = node.pointee.previous
    let next = node.pointee.next
    if previous >= 0 {
      nodes[previous].next = next
    } else {
      head = next
    }
    if next >= 0 {
      nodes[next].previous = previous
    } else {
      tail = previous
    }
    node.pointee.previous = -1
    node.pointee.next = -1
    cost -= node.pointee.cost
    count -= 1
  }

  /// Makes entry `index`, which must be in this list, the most recently used.
  /// Relinks only: the list's cost and count stay as they are.
  @inlinable
  @inline(__always)  // a read's one list operation: a call would copy the store
  mutating func moveToBack(_ index: Int, _ nodes: NodeStore) {
    guard tail != index else { return }
    let node = nodes.node(index)
    let previous = node.pointee.previous
    let next = node.pointee.next  // not -1: the entry is not the tail
    if previous >= 0 {
      nodes[previous].next = next
    } else {
      head = next
    }
    nodes[next].previous = previous
    nodes[tail].next = index
    node.pointee.previous = tail
    node.pointee.next = -1
    tail = index
  }

  // The list's indices are always valid slots of `nodes` (an invariant of the
  // policy), so the work is done on the array's buffer: one uniqueness check
  // per operation instead of one per link written.

  @inlinable
  mutating func append(_ index: Int, _ nodes: UnsafeMutableBufferPointer<AccessOrderNode>) {
    nodes[index].previous = tail
    nodes[index].next = -1
    if tail >= 0 {
      nodes[tail].next = index
    } else {
      head = index
    }
    tail = index
    cost += nodes[index].cost
    count += 1
  }

  @inlinable
  mutating func remove(_ index: Int, _ nodes: UnsafeMutableBufferPointer<AccessOrderNode>) {
    let previous = nodes[index].previous
    let next = nodes[index].next
    if previous >= 0 {
      nodes[previous].next = next
    } else {
      head = next
    }
    if next >= 0 {
      nodes[next].previous = previous
    } else {
      tail = previous
    }
    nodes[index].previous = -1
    nodes[index].next = -1
    cost -= nodes[index].cost
    count -= 1
  }

  /// Empties the list (the nodes are left as they are).
  @inlinable
  mutating func removeAll() {
    self = AccessOrderList()
  }
}
