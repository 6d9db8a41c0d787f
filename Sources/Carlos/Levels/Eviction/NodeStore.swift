/// Where the eviction policy's ``AccessOrderNode``s live: fixed-size records
/// numbered by slot, each holding one node at the same offset, in pages that
/// never move once allocated.
///
/// Standing alone (``init()``), a record is just the node. A ``MemoryCacheLevel``
/// makes its records larger (``init(stride:nodeOffset:)``): each holds the entry's
/// key, value and times next to the policy's node, so one record is all there is
/// of an entry, and a read, the policy's bookkeeping and the shard's index all
/// name it by slot.
///
/// Page `k` holds `16 << k` records (32 pages: more than 2³¹ slots), so a slot's
/// address is one load from a table that never moves and some arithmetic; the
/// records of a page are only written (so only made resident) as slots are
/// claimed. Pages are freed when the last copy of the store goes.
@usableFromInline
struct NodeStore: @unchecked Sendable {
  // @unchecked: the pages are written only by whoever owns the slots (the policy's
  // lock in a level, see ``SlotTable``); `pages` never moves.

  /// Owns the pages.
  @usableFromInline
  final class Pages: @unchecked Sendable {
    @usableFromInline let table: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    @usableFromInline
    init() {
      table = .allocate(capacity: NodeStore.pageCount)
      table.initialize(repeating: nil, count: NodeStore.pageCount)
    }

    deinit {
      for page in 0..<NodeStore.pageCount { table[page]?.deallocate() }
      table.deallocate()
    }
  }

  /// The number of pages; page `k` holds `firstPage << k` records.
  @usableFromInline static var pageCount: Int { 32 }
  /// Records in the first page (a power of two).
  @usableFromInline static var firstPageShift: Int { 4 }

  @usableFromInline let pages: Pages
  /// `pages.table`, here so that an address costs no load through the class.
  @usableFromInline let table: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  /// Bytes from one record to the next, and where the node sits in a record.
  @usableFromInline let stride: Int
  @usableFromInline let nodeOffset: Int
  /// The number of slots claimed (slots `0..<count` have a node).
  @usableFromInline var count = 0

  /// A store whose records are just nodes (the policy standing alone).
  @inlinable
  init() {
    self.init(stride: MemoryLayout<AccessOrderNode>.stride, nodeOffset: 0)
  }

  /// A store of records of `stride` bytes (a multiple of 8) with the node `nodeOffset`
  /// bytes into each (a multiple of 8).
  @inlinable
  init(stride: Int, nodeOffset: Int) {
    precondition(stride % 8 == 0 && nodeOffset % 8 == 0)
    precondition(nodeOffset + MemoryLayout<AccessOrderNode>.size <= stride)
    pages = Pages()
    table = pages.table
    self.stride = stride
    self.nodeOffset = nodeOffset
  }

  /// The start of slot `slot`'s record (`slot` must be below ``count``).
  @inlinable
  func record(_ slot: Int) -> UnsafeMutableRawPointer {
    let position = UInt(bitPattern: slot) &+ (1 &<< UInt(Self.firstPageShift))
    let top = UInt(UInt.bitWidth &- 1 &- position.leadingZeroBitCount)
    let page = Int(bitPattern: top) &- Self.firstPageShift
    let index = Int(bitPattern: position &- (1 &<< top))
    return table[page].unsafelyUnwrapped + index &* stride
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

  /// Claims the next slot, with a node of generation 0 that belongs to no list.
  @inlinable
  @discardableResult
  mutating func append() -> Int {
    let slot = count
    precondition(slot < 0x7FFF_FFFE, "a memory level holds fewer than 2³¹ − 2 entries")
    let position = UInt(bitPattern: slot) &+ (1 &<< UInt(Self.firstPageShift))
    if position & (position &- 1) == 0 {  // the first slot of a page
      let page = UInt.bitWidth &- 1 &- position.leadingZeroBitCount &- Self.firstPageShift
      let records = 1 &<< (page &+ Self.firstPageShift)
      table[page] = UnsafeMutableRawPointer.allocate(byteCount: records &* stride, alignment: 64)
    }
    (record(slot) + nodeOffset).bindMemory(to: AccessOrderNode.self, capacity: 1).initialize(
      to: AccessOrderNode(cost: 1, hash: 0, region: .window))
    count = slot &+ 1
    return slot
  }
}
