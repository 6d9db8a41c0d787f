/// Names an entry of a ``MemoryCacheLevel`` in its read buffer: the entry's slot
/// in the ``SlotTable`` and that slot's generation, so that a read recorded for an
/// entry that has since left is recognised and ignored when the buffer is drained.
///
/// Never 0 (an empty buffer cell), never has its top bit set (a miss note) nor
/// ``updateFlag`` (which marks a note as an update rather than a read).
@usableFromInline
enum ReadTicket {
  /// The ticket of `slot` (below 2³¹ − 1) in its `generation` (below 2³¹).
  @inlinable
  static func make(slot: Int, generation: UInt32) -> UInt64 {
    UInt64(generation & 0x7FFF_FFFF) << 32 | UInt64(truncatingIfNeeded: slot &+ 1) & 0x7FFF_FFFF
  }

  /// The slot a ticket names.
  @inlinable
  static func slot(_ ticket: UInt64) -> Int { Int(truncatingIfNeeded: ticket & 0x7FFF_FFFF) &- 1 }

  /// Set in a read buffer's note of an update of the entry the ticket names.
  @inlinable
  static var updateFlag: UInt64 { 1 << 31 }

  /// The generation of the slot a ticket names.
  @inlinable
  static func generation(_ ticket: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: ticket >> 32) }
}
