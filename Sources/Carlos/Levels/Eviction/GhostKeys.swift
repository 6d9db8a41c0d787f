/// Remembers which keys were dropped recently (their hash values only), so the
/// policy can tell when a key it dropped is asked for again: a *ghost* hit.
///
/// Membership means "among the last `limit` keys added". Keys live in a
/// direct-mapped table stamped with their drop number, so adding, testing and
/// expiring are O(1) and allocate nothing. Two keys that land in the same table
/// slot overwrite each other, so some ghosts are forgotten early; with the table
/// at least twice `limit`, roughly the same share of every kind of ghost is lost,
/// which keeps comparisons between two `GhostKeys` fair. A false match needs two
/// keys with the same slot and the same 32-bit fingerprint.
@usableFromInline
struct GhostKeys: Sendable {
  /// Per slot: the fingerprint (high 32 bits) and the drop number (low 32 bits);
  /// 0 when empty (fingerprints are never 0).
  @usableFromInline var table: ContiguousArray<UInt64>
  @usableFromInline var mask: Int
  /// The number of keys added so far (wrapping).
  @usableFromInline var drops: UInt32 = 0
  /// How many of the most recent keys count as members.
  @usableFromInline var limit: UInt32 = 0

  @inlinable
  init() {
    table = ContiguousArray(repeating: 0, count: 16)
    mask = 15
  }

  /// Remembers the most recent `limit` keys from now on, enlarging the table
  /// (and forgetting every ghost) when it is too small for that many.
  @inlinable
  mutating func resize(limit newLimit: Int) {
    let bounded = Swift.min(Swift.max(1, newLimit), 1 << 30)
    limit = UInt32(bounded)
    var size = table.count
    while size < 2 * bounded { size <<= 1 }
    if size > table.count {
      table = ContiguousArray(repeating: 0, count: size)
      mask = size - 1
    }
  }

  @inlinable
  static func fingerprint(_ hash: UInt64) -> UInt64 {
    (hash >> 32) | 1
  }

  /// Remembers a dropped key.
  @inlinable
  mutating func add(_ hash: UInt64) {
    drops &+= 1
    table[Int(truncatingIfNeeded: hash) & mask] = Self.fingerprint(hash) << 32 | UInt64(drops)
  }

  /// Whether the key was among the last `limit` keys added (and not overwritten).
  @inlinable
  func contains(_ hash: UInt64) -> Bool {
    let entry = table[Int(truncatingIfNeeded: hash) & mask]
    guard entry >> 32 == Self.fingerprint(hash) else { return false }
    return drops &- UInt32(truncatingIfNeeded: entry) < limit
  }

  /// Loads the slot of the key whose hash is `hash`, to bring its cache line in
  /// before ``contains(_:)`` or ``add(_:)`` needs it; returns a value to be discarded.
  @inlinable
  func warm(_ hash: UInt64) -> UInt64 {
    table[Int(truncatingIfNeeded: hash) & mask]
  }
}
