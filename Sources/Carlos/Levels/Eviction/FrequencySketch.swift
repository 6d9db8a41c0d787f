/// An approximate, aging count of how often each key was used: a count-min
/// sketch of 4-bit counters (TinyLFU).
///
/// Each key maps to four counters in four different rows, all within one 64-byte
/// block of the table; its estimated
/// frequency is the smallest of the four, so collisions can only overestimate.
/// Counters saturate at 15. After `sampleSize` recorded uses every counter is
/// halved, so old popularity fades and the sketch follows changes in the workload.
/// The table grows with the number of entries the cache holds (16 counters per
/// entry, rounded up to a power of two); growing it starts the counts afresh.
@usableFromInline
struct FrequencySketch: @unchecked Sendable {
  // @unchecked: the counters are reached through a pointer; a sketch lives in one
  // eviction policy, used under that policy's lock (copies share their counters).

  /// The largest table, in 64-bit words (128 MiB of counters).
  @usableFromInline static let maximumWords = 1 << 24
  /// Masks the low bit of every 4-bit counter.
  @usableFromInline static let lowBits: UInt64 = 0x1111_1111_1111_1111
  /// Masks the three low bits of every 4-bit counter (after a right shift by one).
  @usableFromInline static let resetMask: UInt64 = 0x7777_7777_7777_7777

  /// The counter words, on 64-byte lines of their own; freed with the last copy
  /// of the sketch.
  @usableFromInline
  final class Table {
    @usableFromInline let words: UnsafeMutablePointer<UInt64>

    /// `count` zeroed words.
    @usableFromInline
    init(count: Int) {
      words = UnsafeMutableRawPointer.allocate(byteCount: count * 8, alignment: 64)
        .bindMemory(to: UInt64.self, capacity: count)
      words.initialize(repeating: 0, count: count)
    }

    deinit {
      words.deallocate()
    }
  }

  /// Owns `counters`.
  @usableFromInline var table: Table
  /// 16 counters per word, in blocks of 8 words (one cache line each); row `i` of
  /// the sketch uses words `2i` and `2i + 1` of a block. Written without a
  /// uniqueness check: a sketch is never copied to be changed apart.
  @usableFromInline var counters: UnsafeMutablePointer<UInt64>
  /// The number of counter words less one (the number is a power of two).
  @usableFromInline var wordMask: Int
  /// Recorded uses since the last halving (adjusted after each halving).
  @usableFromInline var additions: Int
  /// After this many recorded uses, every counter is halved. Ten times the
  /// number of entries the sketch is sized for.
  @usableFromInline var sampleSize: Int
  /// The number of entries the sketch is sized for (the most the cache held).
  @usableFromInline var sizedFor: Int

  /// Creates an empty sketch sized for a handful of entries.
  @inlinable
  init() {
    table = Table(count: 8)
    counters = table.words
    wordMask = 7
    additions = 0
    sampleSize = 80
    sizedFor = 8
  }

  /// Makes room for `entries` entries: raises the sample size, and enlarges the
  /// table (forgetting every count) when it is too small.
  @inlinable
  mutating func ensureCapacity(_ entries: Int) {
    guard entries > sizedFor else { return }
    sizedFor = entries
    sampleSize = entries > Int.max / 10 ? Int.max : 10 * entries
    var words = self.words
    while words < entries && words < Self.maximumWords { words <<= 1 }
    if words > self.words {
      table = Table(count: words)
      counters = table.words
      wordMask = words - 1
      additions = 0
    }
  }

  /// The number of counter words (a power of two).
  @inlinable
  var words: Int { wordMask + 1 }

  /// Spreads the bits of a hash value (the MurmurHash3 finalizer).
  @inlinable
  static func mix(_ value: UInt64) -> UInt64 {
    var x = value
    x = (x ^ (x >> 33)) &* 0xFF51_AFD7_ED55_8CCD
    x = (x ^ (x >> 33)) &* 0xC4CE_B9FE_1A85_EC53
    return x ^ (x >> 33)
  }

  /// The first word of the 64-byte block (8 words) that holds the key's four
  /// counters, chosen by the low bits of the mixed hash. Keeping the four
  /// counters in one block costs one cache miss per use instead of four.
  @inlinable
  func block(_ mixed: UInt64) -> Int {
    (Int(truncatingIfNeeded: mixed) & (wordMask >> 3)) << 3
  }

  /// The word (in the block) and the bit shift of the key's counter in row
  /// `row`, chosen by one byte of the high half of the mixed hash: rows use
  /// distinct word pairs, so they never share a counter.
  @inlinable
  static func counter(_ mixed: UInt64, row: Int) -> (word: Int, shift: UInt64) {
    let byte = mixed &>> (32 &+ 8 &* UInt64(truncatingIfNeeded: row))
    return (
      (row &<< 1) | Int(truncatingIfNeeded: byte & 1),
      ((byte &>> 1) & 15) &<< 2
    )
  }

  /// Records one use of the key whose hash value is `hash`.
  @inlinable
  @inline(__always)  // once per hit: the call and its reloads cost a tenth of it
  mutating func increment(_ hash: UInt64) {
    let mixed = Self.mix(hash)
    let block = counters + block(mixed)
    // Without branches: each counter below 15 gains 1.
    let added =
      Self.bump(block, mixed, row: 0) | Self.bump(block, mixed, row: 1)
      | Self.bump(block, mixed, row: 2) | Self.bump(block, mixed, row: 3)
    if added != 0 {
      additions += 1
      if additions >= sampleSize { halve() }
    }
  }

  /// Adds 1 to the key's counter in row `row` of `block` unless it is 15 already;
  /// returns 1 when it added, 0 otherwise.
  @inlinable
  @inline(__always)
  static func bump(_ block: UnsafeMutablePointer<UInt64>, _ mixed: UInt64, row: Int) -> UInt64 {
    let (offset, shift) = counter(mixed, row: row)
    let word = block + offset
    let bump = (((word.pointee &>> shift) & 0xF) &+ 1) &>> 4 ^ 1
    word.pointee &+= bump &<< shift
    return bump
  }

  /// The estimated number of recent uses of the key whose hash value is `hash` (0 ... 15).
  @inlinable
  func frequency(_ hash: UInt64) -> Int {
    let mixed = Self.mix(hash)
    let start = block(mixed)
    var smallest: UInt64 = 0xF
    for row in 0..<4 {
      let (offset, shift) = Self.counter(mixed, row: row)
      smallest = Swift.min(smallest, (counters[start &+ offset] &>> shift) & 0xF)
    }
    return Int(smallest)
  }

  /// Loads the first word of the block of the key whose hash value is `hash`, to
  /// bring its cache line in; returns a value to be discarded.
  @inlinable
  func warm(_ hash: UInt64) -> UInt64 {
    counters[block(Self.mix(hash))]
  }

  /// Halves every counter (ages the sketch).
  @inlinable
  mutating func halve() {
    var odd = 0
    for index in 0..<words {
      let word = counters[index]
      odd &+= (word & Self.lowBits).nonzeroBitCount
      counters[index] = (word >> 1) & Self.resetMask
    }
    // Each use raised four counters; the odd counters lost half a use each in the
    // truncation, so remove their share before halving the count.
    additions = Swift.max(0, (additions - (odd >> 2)) >> 1)
  }

  /// Forgets every count, keeping the size.
  @inlinable
  mutating func reset() {
    counters.update(repeating: 0, count: words)
    additions = 0
  }
}
