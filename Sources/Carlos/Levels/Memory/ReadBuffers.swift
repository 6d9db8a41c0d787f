import Synchronization

/// Where readers of a ``MemoryCacheLevel`` note their hits and misses for the
/// eviction policy, without taking the policy's lock.
///
/// The buffers are striped by thread: a reader writes into the stripe of its
/// thread under that stripe's lock, tried without waiting; if another thread
/// holds it, or the stripe is full, the note is dropped. Dropping costs only a
/// little accuracy in the policy's picture of what is popular — never a value,
/// never the capacity bound. Whoever holds the policy's lock drains every stripe
/// and applies the notes in order (writers always drain first, so a single thread
/// sees its reads applied exactly in order).
@usableFromInline
final class ReadBuffers: Sendable {
  /// One stripe: a fixed ring of notes and a hint of how many it holds.
  @usableFromInline
  final class Stripe: Sendable {
    @usableFromInline let notes = Lock(Notes())
    let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

    @usableFromInline init() {}
  }

  /// One bit per stripe that holds notes, so a drain visits only those. A reader
  /// sets its bit when its stripe goes from empty to not empty: one shared write
  /// per drain, not per read.
  @usableFromInline let pending = Atomic<UInt64>(0)

  /// The notes of a stripe.
  @usableFromInline
  struct Notes: Sendable {
    @usableFromInline var items = ContiguousArray(repeating: 0, count: ReadBuffers.capacity)
    @usableFromInline var count = 0

    @usableFromInline init() {}
  }

  /// How many notes a stripe holds.
  @usableFromInline static var capacity: Int { 32 }
  /// How many notes make a reader try to drain.
  @usableFromInline static var drainThreshold: Int { 16 }
  @usableFromInline static var stripeCount: Int { 16 }

  @usableFromInline let stripes: [Stripe]

  @usableFromInline
  init() {
    stripes = (0..<Self.stripeCount).map { _ in Stripe() }
  }

  /// Notes `note` in the calling thread's stripe; returns whether the stripe is
  /// full enough to be drained. Never waits.
  @inlinable
  func record(_ note: Int) -> Bool {
    record(note, stripe: threadStripe())
  }

  /// Notes `note` in stripe `stripe` (a ``threadStripe()`` number).
  @inlinable
  func record(_ note: Int, stripe number: Int) -> Bool {
    let stripe = stripes[number & (Self.stripeCount - 1)]
    let count = stripe.notes.withLockIfAvailable { notes -> Int in
      guard notes.count < Self.capacity else { return notes.count }
      notes.items[notes.count] = note
      notes.count += 1
      return notes.count
    }
    guard let count else { return false }
    if count == 1 { markPending(number) }
    return count >= Self.drainThreshold
  }

  /// Sets the pending bit of stripe `number`.
  @inlinable
  func markPending(_ number: Int) {
    let bit = UInt64(1) << UInt64(number & (Self.stripeCount - 1))
    if pending.load(ordering: .relaxed) & bit == 0 {
      pending.bitwiseOr(bit, ordering: .relaxed)
    }
  }

  /// Notes a miss of the key with hash `hash` (two notes: the marker, then the
  /// whole hash) in stripe `stripe`; returns whether the stripe should be drained.
  @inlinable
  func recordMiss(hash: Int, stripe number: Int) -> Bool {
    let stripe = stripes[number & (Self.stripeCount - 1)]
    let count = stripe.notes.withLockIfAvailable { notes -> Int in
      guard notes.count + 2 <= Self.capacity else { return notes.count }
      notes.items[notes.count] = Self.missMarker
      notes.items[notes.count + 1] = hash
      notes.count += 2
      return notes.count
    }
    guard let count else { return false }
    if count == 2 { markPending(number) }
    return count >= Self.drainThreshold
  }

  /// Moves every note into `drained`, stripe by stripe.
  @inlinable
  func drain(into drained: inout [Int]) {
    var marked = pending.exchange(0, ordering: .acquiring)
    while marked != 0 {
      let number = marked.trailingZeroBitCount
      marked &= marked &- 1
      stripes[number].notes.withLock { notes in
        drained.append(contentsOf: notes.items[0..<notes.count])
        notes.count = 0
      }
    }
  }

  /// A note of a hit on `slot` (below 2^32) in its generation `generation`
  /// (compared on its low 30 bits).
  @inlinable
  static func hit(slot: Int, generation: UInt32) -> Int {
    (Int(generation & 0x3FFF_FFFF) << 33) | (slot << 1)
  }

  /// The slot and generation of a hit note.
  @inlinable
  static func decodeHit(_ note: Int) -> (slot: Int, generation: UInt32) {
    ((note >> 1) & 0xFFFF_FFFF, UInt32(truncatingIfNeeded: note >> 33) & 0x3FFF_FFFF)
  }

  /// The note that says the next note is the hash of a key that was missed.
  /// Hit notes are never negative, so it cannot be taken for one.
  @inlinable
  static var missMarker: Int { -1 }
}
