/// Tells whether entries that have just been used are worth less than new ones:
/// when they are, the policy *retires* an entry on its first hit in the window
/// (moves it to main, which is evicted first while the window is within its
/// share), as ARC moves a hit entry from its recency list T1 to T2.
///
/// Some workloads use most keys exactly once or twice, close together (a record
/// written, then read back once); there an entry that has been hit is dead, yet
/// LRU moves it to the most recently used end and frequency-based admission
/// protects it (its count is the highest around). The indicator measures, over
/// the recent past:
///
/// - `p1`: the share of new entries that are used at least once before they are
///   evicted (first hits against entries evicted unused), and
/// - `p2`: the share of entries used once that are used again before they are
///   evicted (second hits against entries evicted after one use).
///
/// Retiring starts when `p2 < p1 / margin`, i.e. a used entry is less than half
/// as likely to be used again as a new entry is to be used at all, and stops
/// when that no longer holds.
///
/// Retiring shortens the life of used entries, which would lower `p2` and keep
/// retiring on for good. So `p2` is measured on a *control group* only: the keys
/// whose hash falls in one sixteenth of the space are never retired, and their
/// second uses are measured under the unchanged (LRU) treatment, as in the set
/// dueling of adaptive insertion policies (Qureshi et al., ISCA 2007).
///
/// Counts halve after each decision, so the indicator follows a changing
/// workload; a decision is taken every `samplePerEntry` × entries resolved new
/// entries.
@usableFromInline
struct ReuseIndicator: Sendable {
  /// How many times less likely a second use must be than a first use to retire.
  @usableFromInline static let margin = 2
  /// New entries resolved (hit or evicted unused) per decision, per entry the
  /// cache holds.
  @usableFromInline static let samplePerEntry = 8

  /// New entries hit for the first time.
  @usableFromInline var firstHits = 0
  /// New entries evicted without a hit.
  @usableFromInline var evictedUnused = 0
  /// Control-group entries hit for the second time.
  @usableFromInline var secondHits = 0
  /// Control-group entries evicted after exactly one hit.
  @usableFromInline var evictedUsedOnce = 0
  /// Whether entries hit in the window are retired to main.
  @usableFromInline var retiring = false

  @inlinable
  init() {}

  /// Whether a key belongs to the control group (never retired).
  @inlinable
  static func isControl(_ hash: UInt64) -> Bool {
    (hash >> 40) & 15 == 0
  }

  /// Records a hit on an entry that had been hit `uses` times before (0, 1, or
  /// 2 for two or more).
  @inlinable
  mutating func recordHit(uses: UInt8, hash: UInt64) {
    if uses == 0 {
      firstHits &+= 1
    } else if uses == 1 && Self.isControl(hash) {
      secondHits &+= 1
    }
  }

  /// Records the eviction of an entry that had been hit `uses` times; decides
  /// again once enough new entries are resolved for a cache of `entries` entries.
  @inlinable
  mutating func recordEviction(uses: UInt8, hash: UInt64, entries: Int) {
    if uses == 0 {
      evictedUnused &+= 1
    } else if uses == 1 && Self.isControl(hash) {
      evictedUsedOnce &+= 1
    }
    if firstHits + evictedUnused > Self.samplePerEntry * Swift.max(1, entries) { decide() }
  }

  /// Retires when `secondHits / (secondHits + evictedUsedOnce)` is below
  /// `firstHits / (firstHits + evictedUnused) / margin` (not without evidence:
  /// no control entry used once resolved); then halves the counts.
  @inlinable
  mutating func decide() {
    // In floating point: the products of counts can exceed Int for huge caches.
    let newResolved = Double(firstHits + evictedUnused)
    let usedResolved = Double(secondHits + evictedUsedOnce)
    retiring =
      Double(Self.margin) * Double(secondHits) * newResolved < Double(firstHits) * usedResolved
    firstHits /= 2
    evictedUnused /= 2
    secondHits /= 2
    evictedUsedOnce /= 2
  }
}
