/// A miniature cache that tells how many hits a fixed configuration of the
/// policy would get on the same requests as the real cache: plain LRU (a window
/// as large as the cache) or W-TinyLFU with a small fixed window. The adaptive
/// policy uses two of them to notice when either fixed configuration does
/// better than it does.
///
/// It follows *miniature simulation* (Waldspurger et al., "Cache Modeling and
/// Optimization using Miniature Simulations", USENIX ATC 2017) with SHARDS
/// spatial sampling (Waldspurger et al., FAST 2015): only keys whose mixed hash
/// falls below a threshold are simulated, in a cache scaled down by the same
/// rate, so a cache of `entries` entries is modelled by at most
/// ``maximumEntries`` (every key is simulated while the cache holds no more).
/// Caffeine's simulator has a climber built on the same idea (several
/// miniatures with different windows).
///
/// The miniature's regions work as the real policy's: new keys enter an LRU
/// window; keys pushed out of it duel main's probation victim on the real
/// frequency sketch (which counts the same requests a fixed policy's would),
/// under the real policy's admission rule, random tie-break included (without
/// it, a miniature looks better than the configuration it models wherever
/// ties are common, e.g. a loop); a hit in probation promotes to protected
/// (80 % of main). Entries have unit cost.
///
/// Each sampled request is scored twice: whether the miniature hits, and whether
/// the real cache hit. The counts of *discordant* requests — the miniature hit
/// where the real cache missed (`modelOnly`), and the other way round
/// (`realOnly`) — give a paired comparison (McNemar's test) that does not depend
/// on how the hit ratio itself moves with the workload.
///
/// Storage is allocated once, by ``configure(entries:)``; each sampled request
/// is O(1) (one open-addressing probe sequence, a few list moves) and allocates
/// nothing.
@usableFromInline
struct MiniatureCache: Sendable {
  /// The most keys a miniature holds.
  @usableFromInline static let maximumEntries = 1024
  /// Sampling compares these many low bits of the mixed hash with the threshold.
  @usableFromInline static let samplingBits: UInt64 = 24
  /// Region marks.
  @usableFromInline static let window: UInt8 = 0
  @usableFromInline static let probation: UInt8 = 1
  @usableFromInline static let protected: UInt8 = 2

  /// The window's share of the miniature (1: plain LRU).
  @usableFromInline let windowShare: Double
  /// Sampled requests: the miniature hit, the real cache missed.
  @usableFromInline var modelOnly = 0
  /// Sampled requests: the real cache hit, the miniature missed.
  @usableFromInline var realOnly = 0
  /// Sampled requests.
  @usableFromInline var requests = 0
  /// A key is sampled when the low ``samplingBits`` of its mixed hash are below
  /// this (0: not configured, nothing sampled).
  @usableFromInline var threshold: UInt64 = 0
  /// The miniature's capacity, window and protected maximum, in keys.
  @usableFromInline var capacity = 0
  @usableFromInline var windowMaximum = 0
  @usableFromInline var protectedMaximum = 0
  /// Per slot: the key's mixed hash (odd), its hash for the sketch, its region
  /// and its links.
  @usableFromInline var keys: ContiguousArray<UInt64> = []
  @usableFromInline var hashes: ContiguousArray<UInt64> = []
  @usableFromInline var regions: ContiguousArray<UInt8> = []
  @usableFromInline var previous: ContiguousArray<Int32> = []
  @usableFromInline var next: ContiguousArray<Int32> = []
  /// Open addressing (linear probing) from a key to its slot; -1 when empty.
  @usableFromInline var index: ContiguousArray<Int32> = []
  @usableFromInline var indexMask = 0
  /// Slots used so far (one more than the capacity: a key is added before
  /// another is evicted), and the slot freed by the last eviction.
  @usableFromInline var used = 0
  @usableFromInline var spare: Int32 = -1
  /// Least (`heads`) and most (`tails`) recently used slot of each region (-1: none).
  @usableFromInline var heads: (Int32, Int32, Int32) = (-1, -1, -1)
  @usableFromInline var tails: (Int32, Int32, Int32) = (-1, -1, -1)
  /// Keys in each region.
  @usableFromInline var counts: (Int, Int, Int) = (0, 0, 0)

  /// Creates an unconfigured miniature whose window is `windowShare` of it.
  @inlinable
  init(windowShare: Double) {
    self.windowShare = windowShare
  }

  /// Whether the miniature is running.
  @inlinable
  var isConfigured: Bool { threshold != 0 }

  /// Breaks admission ties as the real cache does
  /// (``WindowTinyLFU/admits(candidateFrequency:victimFrequency:random:)``).
  @usableFromInline var random = SplitMix64(seed: 0)

  /// Starts modelling a cache of `entries` entries, from empty; `seed` seeds
  /// the random tie-break of admission.
  @inlinable
  mutating func configure(entries: Int, seed: UInt64 = 0) {
    random = SplitMix64(seed: seed)
    let entries = Swift.max(1, entries)
    capacity = Swift.min(entries, Self.maximumEntries)
    windowMaximum = Swift.min(
      capacity, Swift.max(1, Int((windowShare * Double(capacity)).rounded())))
    protectedMaximum = Int(0.8 * Double(capacity - windowMaximum))
    let scale = Double(1 << Self.samplingBits)
    threshold = Swift.max(1, UInt64(scale * Double(capacity) / Double(entries)))
    keys = ContiguousArray(repeating: 0, count: capacity + 1)
    hashes = ContiguousArray(repeating: 0, count: capacity + 1)
    regions = ContiguousArray(repeating: 0, count: capacity + 1)
    previous = ContiguousArray(repeating: -1, count: capacity + 1)
    next = ContiguousArray(repeating: -1, count: capacity + 1)
    var size = 4
    while size < 2 * (capacity + 1) { size <<= 1 }
    index = ContiguousArray(repeating: -1, count: size)
    indexMask = size - 1
    used = 0
    spare = -1
    heads = (-1, -1, -1)
    tails = (-1, -1, -1)
    counts = (0, 0, 0)
    resetCounts()
  }

  /// Clears the comparison counts (not the miniature's contents).
  @inlinable
  mutating func resetCounts() {
    modelOnly = 0
    realOnly = 0
    requests = 0
  }

  /// Comparison counts put aside while a changeover period is skipped.
  @usableFromInline var saved = (modelOnly: 0, realOnly: 0, requests: 0)

  /// Puts the comparison counts aside (at a forced move).
  @inlinable
  mutating func saveCounts() {
    saved = (modelOnly, realOnly, requests)
  }

  /// Replaces the counts with the ones put aside, dropping those of the
  /// changeover period.
  @inlinable
  mutating func restoreCounts() {
    (modelOnly, realOnly, requests) = saved
  }

  /// Halves the comparison counts, so older requests weigh less.
  @inlinable
  mutating func ageCounts() {
    modelOnly /= 2
    realOnly /= 2
    requests /= 2
  }

  /// The key's hash, mixed with other constants than the sketch's and the
  /// ghosts', so sampling is independent of them.
  @inlinable
  static func mix(_ hash: UInt64) -> UInt64 {
    var x = hash ^ 0x2545_F491_4F6C_DD1D
    x = (x ^ (x >> 32)) &* 0xD6E8_FEB8_6659_FD93
    x = (x ^ (x >> 32)) &* 0xD6E8_FEB8_6659_FD93
    return x ^ (x >> 32)
  }

  /// Whether the key with hash `hash` is sampled; `mixed` is its mixed hash.
  @inlinable
  func isSampled(_ mixed: UInt64) -> Bool {
    mixed & ((1 << Self.samplingBits) - 1) < threshold
  }

  /// Records a request for the key with hash `hash` (mixed: `mixed`, sampled),
  /// which the real cache hit or not; `sketch` gives frequencies for admission.
  /// Returns whether the miniature hit.
  @inlinable
  @discardableResult
  mutating func record(
    _ hash: UInt64, mixed: UInt64, realHit: Bool, sketch: borrowing FrequencySketch
  ) -> Bool {
    let key = mixed | 1  // never 0
    requests &+= 1
    var position = Int(truncatingIfNeeded: key >> 32) & indexMask
    while true {
      let slot = index[position]
      if slot < 0 { break }
      if keys[Int(slot)] == key {
        if !realHit { modelOnly &+= 1 }
        hit(slot)
        return true
      }
      position = (position &+ 1) & indexMask
    }
    var candidate: Int32 = -1
    defer {
      if counts.0 + counts.1 + counts.2 > capacity {
        evictOne(candidate: candidate, sketch: sketch)
      }
    }
    if realHit { realOnly &+= 1 }
    let slot: Int32
    if used <= capacity {
      slot = Int32(used)
      used += 1
    } else {
      slot = spare
    }
    keys[Int(slot)] = key
    hashes[Int(slot)] = hash
    index[position] = slot  // the empty position the lookup ended on
    append(slot, to: Self.window)
    if counts.0 > windowMaximum {
      candidate = heads.0
      unlink(candidate)
      append(candidate, to: Self.probation)
    }
    return false
  }

  /// A hit on `slot`: most recently used in its region; probation promotes.
  @inlinable
  mutating func hit(_ slot: Int32) {
    let region = regions[Int(slot)]
    unlink(slot)
    if region == Self.probation {
      append(slot, to: Self.protected)
      if counts.2 > protectedMaximum {
        let demoted = heads.2
        unlink(demoted)
        append(demoted, to: Self.probation)
      }
    } else {
      append(slot, to: region)
    }
  }

  /// Evicts one key from a miniature one key over its capacity, keeping the slot
  /// as `spare`: the window's overflow `candidate` (-1: none) duels probation's
  /// least recently used entry under the real policy's admission rule; with no
  /// duel, probation's, protected's or the window's oldest goes.
  @inlinable
  mutating func evictOne(candidate: Int32, sketch: borrowing FrequencySketch) {
    let victim = heads.1
    var evictee: Int32
    if candidate >= 0 && victim >= 0 && victim != candidate {
      let candidateFrequency = sketch.frequency(hashes[Int(candidate)])
      let victimFrequency = sketch.frequency(hashes[Int(victim)])
      let admitted = WindowTinyLFU.admits(
        candidateFrequency: candidateFrequency, victimFrequency: victimFrequency, random: &random)
      evictee = admitted ? victim : candidate
    } else if victim >= 0 {
      evictee = victim
    } else if heads.2 >= 0 {
      evictee = heads.2
    } else {
      evictee = heads.0
    }
    removeFromIndex(keys[Int(evictee)])
    unlink(evictee)
    spare = evictee
  }

  /// Removes a key from the index, shifting later keys of its probe run back
  /// (deletion without tombstones).
  @inlinable
  mutating func removeFromIndex(_ key: UInt64) {
    var hole = Int(truncatingIfNeeded: key >> 32) & indexMask
    while keys[Int(index[hole])] != key { hole = (hole &+ 1) & indexMask }
    var position = hole
    while true {
      position = (position &+ 1) & indexMask
      let slot = index[position]
      if slot < 0 { break }
      let home = Int(truncatingIfNeeded: keys[Int(slot)] >> 32) & indexMask
      // The key may fill the hole unless its home lies cyclically in (hole, position].
      if (position &- home) & indexMask >= (position &- hole) & indexMask {
        index[hole] = slot
        hole = position
      }
    }
    index[hole] = -1
  }

  @inlinable
  mutating func unlink(_ slot: Int32) {
    let region = regions[Int(slot)]
    let before = previous[Int(slot)]
    let after = next[Int(slot)]
    if before >= 0 { next[Int(before)] = after } else { setHead(region, after) }
    if after >= 0 { previous[Int(after)] = before } else { setTail(region, before) }
    switch region {
    case Self.window: counts.0 -= 1
    case Self.probation: counts.1 -= 1
    default: counts.2 -= 1
    }
  }

  @inlinable
  mutating func append(_ slot: Int32, to region: UInt8) {
    let last = tail(region)
    regions[Int(slot)] = region
    previous[Int(slot)] = last
    next[Int(slot)] = -1
    if last >= 0 { next[Int(last)] = slot } else { setHead(region, slot) }
    setTail(region, slot)
    switch region {
    case Self.window: counts.0 += 1
    case Self.probation: counts.1 += 1
    default: counts.2 += 1
    }
  }

  @inlinable
  func tail(_ region: UInt8) -> Int32 {
    switch region {
    case Self.window: return tails.0
    case Self.probation: return tails.1
    default: return tails.2
    }
  }

  @inlinable
  mutating func setHead(_ region: UInt8, _ slot: Int32) {
    switch region {
    case Self.window: heads.0 = slot
    case Self.probation: heads.1 = slot
    default: heads.2 = slot
    }
  }

  @inlinable
  mutating func setTail(_ region: UInt8, _ slot: Int32) {
    switch region {
    case Self.window: tails.0 = slot
    case Self.probation: tails.1 = slot
    default: tails.2 = slot
    }
  }

  /// How far the miniature led the real cache over the requests counted since
  /// the last reset, in standard deviations of the discordant count (McNemar);
  /// 0 unless it leads by at least `minimumLead` of the sampled requests.
  @inlinable
  func lead(minimumLead: Double) -> Double {
    Self.lead(modelOnly, realOnly, requests: requests, minimumLead: minimumLead)
  }

  /// How far `wins` lead `losses` (discordant requests out of `requests`), in
  /// standard deviations (McNemar); 0 unless the lead is at least
  /// `minimumLead` of the requests.
  @inlinable
  static func lead(_ wins: Int, _ losses: Int, requests: Int, minimumLead: Double) -> Double {
    let lead = Double(wins - losses)
    guard lead > 0, lead >= minimumLead * Double(requests) else { return 0 }
    return lead / Double(wins + losses).squareRoot()
  }
}
