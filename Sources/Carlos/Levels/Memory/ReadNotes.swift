/// The reads of one shard of a ``MemoryCacheLevel`` not yet told to its eviction
/// policy: a bounded buffer written under the shard's lock (so recording a read
/// costs two plain stores) and emptied by whoever holds the policy's lock.
///
/// When the buffer is full, further reads are dropped: the policy misses a use of
/// a key, which only blurs its estimate. A single thread never fills it, as its
/// reads drain the buffers once one is half full.
///
/// A note is a ``ReadTicket`` (a hit) or, for a miss, two words that carry the
/// key's whole hash, each with ``missFlag`` set.
@usableFromInline
struct ReadNotes {
  /// The most notes a shard keeps.
  @usableFromInline static var capacity: Int { 32 }
  /// A reader that leaves this many notes asks for a drain.
  @usableFromInline static var drainThreshold: Int { 16 }
  /// Marks the words of a miss note.
  @usableFromInline static var missFlag: UInt64 { 1 << 63 }

  @usableFromInline let words: UnsafeMutablePointer<UInt64>
  /// The number of words written.
  @usableFromInline var count = 0

  /// Creates an empty buffer; its owner calls ``deallocate()``.
  @inlinable
  init() {
    words = .allocate(capacity: Self.capacity)
  }

  /// Frees the buffer's memory.
  @inlinable
  func deallocate() {
    words.deallocate()
  }

  /// Whether the buffer holds enough notes to be drained.
  @inlinable
  var wantsDrain: Bool { count >= Self.drainThreshold }

  /// Records a hit of the entry with `ticket`, unless the buffer is full.
  @inlinable
  mutating func recordHit(_ ticket: UInt64) {
    guard count < Self.capacity else { return }
    words[count] = ticket
    count &+= 1
  }

  /// Records a miss of a key whose hash is `hash`, unless the buffer is full.
  @inlinable
  mutating func recordMiss(hash: UInt64) {
    guard count &+ 2 <= Self.capacity else { return }
    words[count] = Self.missFlag | hash >> 32
    words[count &+ 1] = Self.missFlag | hash & 0xFFFF_FFFF
    count &+= 2
  }

  /// Appends the words written so far to `notes` and empties the buffer.
  @inlinable
  mutating func take(into notes: inout [UInt64]) {
    notes.append(contentsOf: UnsafeBufferPointer(start: words, count: count))
    count = 0
  }

  /// Calls `hit` or `miss` for each note of `notes`, in order.
  @inlinable
  static func replay(_ notes: [UInt64], hit: (UInt64) -> Void, miss: (UInt64) -> Void) {
    var index = 0
    while index < notes.count {
      let word = notes[index]
      if word & missFlag == 0 {
        hit(word)
        index &+= 1
      } else {
        miss((word & 0xFFFF_FFFF) << 32 | notes[index &+ 1] & 0xFFFF_FFFF)
        index &+= 2
      }
    }
  }
}
