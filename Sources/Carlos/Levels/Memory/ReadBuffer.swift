import Foundation
import Synchronization

/// The reads of a ``MemoryCacheLevel`` waiting to be told to its eviction policy:
/// striped, bounded and lossy, so that readers never wait for the policy's lock.
///
/// Each thread writes to the stripe its ``threadStripe()`` number picks: a ring of
/// 32 notes with its own cache lines. The first threads (numbers below the count
/// of exclusive stripes) have a stripe each and write a note with two plain
/// stores; the others share a few stripes, where a reader reserves a cell with a
/// compare-and-swap on the tail. When the ring is full, or another thread won the
/// reservation, the note is dropped (the policy misses one use of one key). A thread drains its own ring, under the policy's lock and in
/// the order the notes were written: before each of its writes, and when a read
/// leaves the ring half full and the lock is free. A single thread therefore never
/// loses a note, and the policy sees its reads and writes in order; the reads of
/// other threads reach the policy at their own next drain.
///
/// A note is a ``ReadTicket`` (a hit, or with ``ReadTicket/updateFlag`` an update
/// of a value by one of the same cost, which a writer records here instead of
/// taking the policy's lock) or, for a miss, two cells that carry the key's whole
/// hash.
@usableFromInline
struct ReadBuffer: ~Copyable, @unchecked Sendable {
  // @unchecked: every cell is an atomic; `base` is written only by `init` and `deinit`.

  /// What the drain hands over.
  @usableFromInline
  enum Note: Sendable {
    /// A hit of the entry with this ticket.
    case hit(UInt64)
    /// A new value, of the same cost, for the entry with this ticket.
    case update(UInt64)
    /// A miss of a key with this hash.
    case miss(UInt64)
  }

  /// Cells per stripe.
  @usableFromInline static var cells: Int { 32 }
  /// A reader that leaves this many notes in its ring asks for a drain.
  @usableFromInline static var drainThreshold: Int { 16 }
  /// Bytes from one stripe to the next: the tail (and a count of dropped notes),
  /// the head, then the cells, each starting a cache line.
  @usableFromInline static var stripeBytes: Int { 128 + cells * 8 }
  /// Marks a miss note's cells.
  @usableFromInline static var missFlag: UInt64 { 1 << 63 }

  @usableFromInline let base: UnsafeMutableRawPointer
  /// The stripes that belong to one thread each: those of threads `0..<exclusive`.
  @usableFromInline let exclusive: Int
  /// The number of shared stripes less one (the number is a power of two).
  @usableFromInline let sharedMask: Int
  /// One bit per stripe that has ever held a note, so drains skip the others.
  @usableFromInline let used = Atomic<UInt64>(0)

  /// Creates `exclusive` stripes of their own for the first threads and `shared`
  /// stripes (rounded up to a power of two) for the others; 64 in all at most.
  @inlinable
  init(exclusive: Int, shared: Int) {
    var sharedCount = 1
    while sharedCount < Swift.max(1, shared) { sharedCount <<= 1 }
    sharedCount = Swift.min(sharedCount, 32)
    self.exclusive = Swift.min(Swift.max(0, exclusive), 64 - sharedCount)
    sharedMask = sharedCount - 1
    let count = self.exclusive + sharedCount
    base = .allocate(byteCount: count * Self.stripeBytes, alignment: 64)
    for stripe in 0..<count {
      let start = base + stripe * Self.stripeBytes
      (start).bindMemory(to: Atomic<Int>.self, capacity: 2).initialize(to: Atomic(0))
      (start + 8).assumingMemoryBound(to: Atomic<Int>.self).initialize(to: Atomic(0))
      (start + 64).bindMemory(to: Atomic<Int>.self, capacity: 1).initialize(to: Atomic(0))
      let cells = (start + 128).bindMemory(to: Atomic<UInt64>.self, capacity: Self.cells)
      for cell in 0..<Self.cells { (cells + cell).initialize(to: Atomic(0)) }
    }
  }

  deinit {
    base.deallocate()
  }

  /// A buffer for this machine: a stripe of its own for each of the first four
  /// threads per core (56 at most), and 8 shared stripes for the others.
  static func forThisMachine() -> ReadBuffer {
    ReadBuffer(
      exclusive: Swift.min(56, Swift.max(4, 4 * ProcessInfo.processInfo.activeProcessorCount)),
      shared: 8)
  }

  /// The stripe of thread number `thread`, and whether the thread has it to itself.
  @inlinable
  @inline(__always)
  func stripe(of thread: Int) -> (index: Int, isExclusive: Bool) {
    thread < exclusive && thread >= 0
      ? (thread, true) : (exclusive &+ (thread & sharedMask), false)
  }

  @inlinable
  func tail(_ stripe: Int) -> UnsafeMutablePointer<Atomic<Int>> {
    (base + stripe &* Self.stripeBytes).assumingMemoryBound(to: Atomic<Int>.self)
  }

  @inlinable
  func head(_ stripe: Int) -> UnsafeMutablePointer<Atomic<Int>> {
    (base + stripe &* Self.stripeBytes + 64).assumingMemoryBound(to: Atomic<Int>.self)
  }

  @inlinable
  func cell(_ stripe: Int, _ index: Int) -> UnsafeMutablePointer<Atomic<UInt64>> {
    (base + stripe &* Self.stripeBytes + 128).assumingMemoryBound(to: Atomic<UInt64>.self)
      + (index & (Self.cells - 1))
  }

  /// Records a hit of the entry with `ticket` in the stripe of thread number
  /// `thread`; returns whether the stripe should be drained now: when this note
  /// makes it half full, and once per ``drainThreshold`` notes dropped while full.
  @inlinable
  @inline(__always)
  func recordHit(_ ticket: UInt64, thread: Int) -> Bool {
    let (stripe, isExclusive) = stripe(of: thread)
    guard let start = reserve(1, in: stripe, isExclusive: isExclusive) else {
      return dropped(in: stripe)
    }
    cell(stripe, start).pointee.store(ticket, ordering: .releasing)
    if isExclusive { tail(stripe).pointee.store(start &+ 1, ordering: .releasing) }
    return crossesThreshold(start, 1, in: stripe)
  }

  /// Records an update of the entry with `ticket` (a new value of the same cost)
  /// in the stripe of thread number `thread`; returns whether the stripe should be
  /// drained now, like ``recordHit(_:thread:)``, or nil when the note could not be
  /// written (the ring is full): the caller must then tell the policy itself.
  @inlinable
  func recordUpdate(_ ticket: UInt64, thread: Int) -> Bool? {
    let (stripe, isExclusive) = stripe(of: thread)
    guard let start = reserve(1, in: stripe, isExclusive: isExclusive) else { return nil }
    cell(stripe, start).pointee.store(ticket | ReadTicket.updateFlag, ordering: .releasing)
    if isExclusive { tail(stripe).pointee.store(start &+ 1, ordering: .releasing) }
    return crossesThreshold(start, 1, in: stripe)
  }

  /// Records a miss of a key with `hash` in the stripe of thread number `thread`;
  /// returns whether the stripe should be drained now, like ``recordHit(_:thread:)``.
  @inlinable
  func recordMiss(hash: UInt64, thread: Int) -> Bool {
    let (stripe, isExclusive) = stripe(of: thread)
    guard let start = reserve(2, in: stripe, isExclusive: isExclusive) else {
      return dropped(in: stripe)
    }
    cell(stripe, start &+ 1).pointee.store(
      Self.missFlag | hash & 0xFFFF_FFFF, ordering: .releasing)
    cell(stripe, start).pointee.store(Self.missFlag | hash >> 32, ordering: .releasing)
    if isExclusive { tail(stripe).pointee.store(start &+ 2, ordering: .releasing) }
    return crossesThreshold(start, 2, in: stripe)
  }

  /// Whether the `count` cells written from `start` took the ring to half full.
  @inlinable
  @inline(__always)
  func crossesThreshold(_ start: Int, _ count: Int, in stripe: Int) -> Bool {
    let before = start &- head(stripe).pointee.load(ordering: .relaxed)
    return before < Self.drainThreshold && before &+ count >= Self.drainThreshold
  }

  /// Counts a dropped note of `stripe`; true once every ``drainThreshold`` drops.
  @inlinable
  func dropped(in stripe: Int) -> Bool {
    let counter = (base + stripe &* Self.stripeBytes + 8).assumingMemoryBound(
      to: Atomic<Int>.self)
    let dropped = counter.pointee.load(ordering: .relaxed) &+ 1
    counter.pointee.store(dropped, ordering: .relaxed)
    return dropped % Self.drainThreshold == 0
  }

  /// Reserves `count` cells of `stripe`; nil when the ring is full or another
  /// thread reserved at the same moment (the note is then dropped). In a stripe of
  /// its own the thread moves the tail itself once the cells are written.
  @inlinable
  @inline(__always)
  func reserve(_ count: Int, in stripe: Int, isExclusive: Bool) -> Int? {
    let bit: UInt64 = 1 << UInt64(stripe)
    if used.load(ordering: .relaxed) & bit == 0 {
      used.bitwiseOr(bit, ordering: .relaxed)
    }
    let tail = tail(stripe)
    let start = tail.pointee.load(ordering: .relaxed)
    guard start &- head(stripe).pointee.load(ordering: .acquiring) &+ count <= Self.cells else {
      return nil
    }
    if isExclusive { return start }
    guard
      tail.pointee.compareExchange(
        expected: start, desired: start &+ count, ordering: .relaxed
      ).exchanged
    else { return nil }
    return start
  }

  /// Hands every note written so far to `apply`, oldest first per stripe: those of
  /// the stripe of thread number `thread` when given, otherwise all. Only one thread
  /// may drain at a time (the caller holds the policy's lock).
  @inlinable
  func drain(thread: Int? = nil, _ apply: (Note) -> Void) {
    if let thread {
      drain(stripe: stripe(of: thread).index, apply)
      return
    }
    var stripes = used.load(ordering: .relaxed)
    while stripes != 0 {
      let stripe = stripes.trailingZeroBitCount
      stripes &= stripes &- 1
      drain(stripe: stripe, apply)
    }
  }

  @inlinable
  func drain(stripe: Int, _ apply: (Note) -> Void) {
    let head = head(stripe)
    var next = head.pointee.load(ordering: .relaxed)
    let end = tail(stripe).pointee.load(ordering: .acquiring)
    while next != end {
      let first = cell(stripe, next).pointee.exchange(0, ordering: .acquiring)
      if first == 0 { break }  // reserved, not yet written
      if first & Self.missFlag == 0 {
        apply(
          first & ReadTicket.updateFlag == 0
            ? .hit(first) : .update(first & ~ReadTicket.updateFlag))
        next &+= 1
        continue
      }
      let second = cell(stripe, next &+ 1).pointee.exchange(0, ordering: .acquiring)
      if second == 0 {  // the second half is not written yet: leave the note
        cell(stripe, next).pointee.store(first, ordering: .relaxed)
        break
      }
      apply(.miss((first & 0xFFFF_FFFF) << 32 | second & 0xFFFF_FFFF))
      next &+= 2
    }
    head.pointee.store(next, ordering: .releasing)
  }
}
