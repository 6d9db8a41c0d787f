/// The eviction policy of ``MemoryCacheLevel``: W-TinyLFU (as in Caffeine), with
/// plain LRU as a degenerate configuration.
///
/// Entries are identified by slot index; the policy keeps their links, costs and
/// hash values and tells its owner which slots to drop. All sizes are in the
/// cache's cost units, so regions are sized by cost, not by count.
///
/// - New entries enter the **window**, an LRU list (1 % of the capacity at first).
/// - Entries pushed out of the window become *candidates* for the **main** area,
///   an SLRU: a **probation** segment, and a **protected** segment (80 % of main)
///   for entries used again while in main.
/// - When the cache is over capacity, each candidate duels the probation
///   segment's least recently used entry (the *victim*): the one with the lower
///   estimated frequency (``FrequencySketch``) is evicted; a tie evicts the
///   candidate. A candidate that is already warm (frequency above 5) wins a tie
///   with probability 1/128, so an attacker cannot pin a victim in place by
///   flooding the sketch with colliding keys.
/// - In adaptive mode a candidate that loses that duel is also compared with
///   the next few probation entries (``evictionSample`` in all, from the least
///   recently used on): when one of them is clearly less frequent
///   (``sampleMargin``), it is evicted instead and the candidate stays. A
///   frequent entry that happens to be probation's oldest no longer shields
///   the rarely used entries behind it (sampled eviction, as in Redis).
/// - In adaptive mode a ``HillClimber`` moves capacity between window and main,
///   from 1 % (the fixed policy's window) to 100 % of the capacity for the
///   window (at 100 % the policy is LRU).
/// - In adaptive mode, once the cache has been full, two ``MiniatureCache``s —
///   plain LRU and the fixed 1 % window, fed with a hash sample of the requests —
///   tell when either end does significantly better than the cache; the window
///   is then sent to that end in one move. Compared with each other, they also
///   tell the climber which way the window should not go
///   (``HillClimber/modelPreference``).
/// - In adaptive mode a ``ReuseIndicator`` watches whether entries that have
///   been hit are worth less than new ones (keys used once or twice, close
///   together). While they are, an entry hit in the window is *retired* to main
///   (as ARC moves a hit entry from T1 to T2), and while the window is within
///   its share, main's entries are evicted before any window entry is asked to
///   duel: with a window as large as the cache, used entries go first and new
///   ones live longer.
/// - In LRU mode the whole capacity is the window; there is no main area, no
///   frequency sketch and no adaptation.
///
/// The entry being stored (`pinned`) is never evicted by the store that added it.
@usableFromInline
struct WindowTinyLFU: Sendable {
  /// How the window is sized.
  @usableFromInline
  enum Mode: Sendable {
    case lru, fixedWindow, adaptiveWindow
  }

  /// The most entries moved between regions by one window change, so a single
  /// operation stays cheap (a larger change completes as entries flow).
  @usableFromInline static let transferLimit = 1_000
  /// A candidate at least this frequent may, rarely, win a frequency tie.
  @usableFromInline static let warmFrequency = 6
  /// The window's initial share of the capacity.
  @usableFromInline static let initialWindowShare = 0.01
  /// The protected segment's share of the main area.
  @usableFromInline static let protectedShare = 0.8
  /// How many probation entries, from the least recently used on, a candidate
  /// that lost to the victim is compared with (adaptive mode): Redis's default
  /// eviction sample (`maxmemory-samples 5`).
  @usableFromInline static let evictionSample = 5
  /// How much less frequent than the candidate a sampled entry must be to be
  /// evicted in its place: more than the one count that halving the sketch
  /// can take from either estimate, so keys used equally often (a loop) are
  /// never traded for one another.
  @usableFromInline static let sampleMargin = 2
  /// How many standard deviations a miniature's lead must reach.
  @usableFromInline static let modelConfidence = 3.0
  /// How many standard deviations one miniature must lead the other by for
  /// the climber to stop moving toward the other.
  @usableFromInline static let preferenceConfidence = 1.0
  /// The long-run comparison of the miniatures loses `1 >> longRunDecayShift`
  /// of its counts each compared period.
  @usableFromInline static let longRunDecayShift = 4
  /// The smallest lead of a miniature that counts, as a share of the sampled
  /// requests.
  @usableFromInline static let modelMinimumLead = 0.01

  @usableFromInline let mode: Mode
  /// The total cost the cache may hold.
  @usableFromInline let capacity: Int
  /// Links and bookkeeping of every slot (free slots hold stale data); in a
  /// memory level, part of each entry's one record.
  @usableFromInline var nodes: NodeStore
  @usableFromInline var window = AccessOrderList()
  @usableFromInline var probation = AccessOrderList()
  @usableFromInline var protected = AccessOrderList()
  /// The cost the window may hold before it pushes entries out to main.
  @usableFromInline var windowMaximum: Int
  /// The cost the protected segment may hold before it demotes entries to probation.
  @usableFromInline var protectedMaximum: Int
  @usableFromInline var sketch = FrequencySketch()
  @usableFromInline var climber: HillClimber
  /// Candidates recently refused admission (or dropped from the window).
  @usableFromInline var rejected = GhostKeys()
  /// Victims recently evicted from main.
  @usableFromInline var evictedFromMain = GhostKeys()
  /// Whether used entries are worth less than new ones (adaptive mode).
  @usableFromInline var reuse = ReuseIndicator()
  /// Miniatures of plain LRU and of the fixed smallest window, fed with
  /// sampled requests (adaptive mode, once the cache has been full): they tell
  /// when either fixed configuration would do better.
  @usableFromInline var lruModel = MiniatureCache(windowShare: 1)
  @usableFromInline var fixedModel = MiniatureCache(windowShare: WindowTinyLFU.initialWindowShare)
  /// Whether the window was just moved to a miniature's configuration (the next
  /// period's comparison is skipped).
  @usableFromInline var modelsSettling = false
  /// Whether a growth of the window was cut short by ``transferLimit``: the
  /// next evictions go on moving main's entries into the window. (Without
  /// this, main's remaining entries would stay in main for good, dueling the
  /// window's candidates: a window as large as the cache would not be LRU.)
  @usableFromInline var windowGrowthPending = false
  /// Sampled requests on which only the LRU miniature hit, and only the
  /// small-window one: a paired comparison of the two ends of the window's
  /// range that the real cache's configuration and its changeovers play no
  /// part in (halved each period).
  @usableFromInline var lruOnly = 0
  @usableFromInline var fixedOnly = 0
  /// The same counts over the long run: they lose 1/16 each compared period
  /// (a half-life of about 11 periods), and an end that is behind on them is
  /// not jumped to (see ``compareWithModels()``).
  @usableFromInline var lruOnlyLongRun = 0
  @usableFromInline var fixedOnlyLongRun = 0
  @usableFromInline var random: SplitMix64

  /// Creates an empty policy for `capacity` cost units, whose nodes live in
  /// `nodes` (by default, a store of its own).
  @inlinable
  init(capacity: Int, mode: Mode, random: SplitMix64, nodes: NodeStore = NodeStore()) {
    self.nodes = nodes
    self.mode = mode
    self.capacity = capacity
    self.random = random
    climber = HillClimber(capacity: capacity)
    switch mode {
    case .lru:
      windowMaximum = capacity
      protectedMaximum = 0
    case .fixedWindow, .adaptiveWindow:
      windowMaximum = capacity - Int((1 - Self.initialWindowShare) * Double(capacity))
      protectedMaximum = Int(Self.protectedShare * Double(capacity - windowMaximum))
    }
  }

  /// The smallest window the climber may choose: the initial share, so the
  /// adaptive policy never holds less recency than the fixed one.
  @inlinable
  var minimumWindow: Int { capacity - Int((1 - Self.initialWindowShare) * Double(capacity)) }

  /// The sum of the costs of all entries.
  @inlinable
  var totalCost: Int { window.cost + probation.cost + protected.cost }

  /// The number of entries.
  @inlinable
  var count: Int { window.count + probation.count + protected.count }

  // MARK: Recording uses

  /// Records a read of entry `slot`.
  @inlinable
  mutating func recordHit(_ slot: Int) {
    if mode == .lru {
      window.moveToBack(slot, nodes)
      return
    }
    climber.recordHit()
    // Nothing here adds a slot, so the node stays where it is.
    let node = nodes.node(slot)
    let hash = node.pointee.hash
    sketch.increment(hash)
    if mode == .adaptiveWindow {
      if lruModel.isConfigured { recordInModels(hash, realHit: true) }
      let uses = node.pointee.uses
      reuse.recordHit(uses: uses, hash: hash)
      if uses < 2 { node.pointee.uses = uses + 1 }
    }
    touch(slot)
  }

  /// Loads entry `slot`'s node (if the slot exists), to bring its cache line in
  /// before ``recordHit(_:)`` needs it; returns a value to be discarded.
  @inlinable
  func warmNode(_ slot: Int) -> UInt64 {
    slot < nodes.count ? nodes[slot].hash : 0
  }

  /// Loads the nodes entry `slot` is linked to and its frequency counters, which
  /// ``recordHit(_:)`` touches next; returns a value to be discarded.
  @inlinable
  func warmNeighbours(_ slot: Int) -> UInt64 {
    guard slot >= 0, slot < nodes.count else { return 0 }
    var sink: UInt64 = 0
    let (previous, next) = (nodes[slot].previous, nodes[slot].next)
    if previous >= 0 { sink &+= UInt64(truncatingIfNeeded: nodes[previous].cost) }
    if next >= 0 { sink &+= UInt64(truncatingIfNeeded: nodes[next].cost) }
    if mode != .lru { sink &+= sketch.warm(nodes[slot].hash) }
    return sink
  }

  /// Loads what adding a key whose hash is `hash` to a full cache reads first: the
  /// key's counters and ghost slots, and the nodes and counters of the first
  /// candidate and victim of the eviction that follows. The loads do not depend on
  /// each other, so their cache misses overlap instead of coming one after another;
  /// returns a value to be discarded.
  @inlinable
  @inline(__always)  // called on `self` as it is: a call would copy the whole policy
  func warmInsert(_ hash: UInt64) -> UInt64 {
    guard mode != .lru, totalCost >= capacity else { return 0 }
    var sink = sketch.warm(hash)
    if mode == .adaptiveWindow { sink &+= rejected.warm(hash) &+ evictedFromMain.warm(hash) }
    let (candidate, victim) = (window.head, probation.head)
    if candidate >= 0 { sink &+= sketch.warm(nodes[candidate].hash) }
    if victim >= 0 { sink &+= sketch.warm(nodes[victim].hash) }
    return sink
  }

  /// Records a read of a key the cache does not hold.
  @inlinable
  mutating func recordMiss() {
    if mode == .lru { return }
    climber.recordMiss()
  }

  /// Whether misses should be recorded with the key's hash
  /// (``recordMiss(hash:)``), for the miniature LRU.
  @inlinable
  var samplesMisses: Bool { lruModel.isConfigured }

  /// Records a read of a key the cache does not hold, whose hash is `hash`.
  @inlinable
  mutating func recordMiss(hash: UInt64) {
    recordMiss()
    if lruModel.isConfigured { recordInModels(hash, realHit: false) }
  }

  /// Feeds a request to the miniatures when its key is sampled.
  @inlinable
  mutating func recordInModels(_ hash: UInt64, realHit: Bool) {
    let mixed = MiniatureCache.mix(hash)
    guard lruModel.isSampled(mixed) else { return }
    let lruHit = lruModel.record(hash, mixed: mixed, realHit: realHit, sketch: sketch)
    let fixedHit = fixedModel.record(hash, mixed: mixed, realHit: realHit, sketch: sketch)
    if lruHit != fixedHit {
      if lruHit {
        lruOnly &+= 1
        lruOnlyLongRun &+= 1
      } else {
        fixedOnly &+= 1
        fixedOnlyLongRun &+= 1
      }
    }
  }

  /// Moves entry `slot` to the most recently used end of its region, promoting it
  /// from probation to protected.
  @inlinable
  mutating func touch(_ slot: Int) {
    switch nodes[slot].region {
    case .window:
      if reuse.retiring && mode == .adaptiveWindow && !ReuseIndicator.isControl(nodes[slot].hash) {
        retire(slot)
      } else {
        window.moveToBack(slot, nodes)
      }
    case .protected:
      protected.moveToBack(slot, nodes)
    case .probation:
      if nodes[slot].cost > protectedMaximum {
        probation.moveToBack(slot, nodes)
        return
      }
      probation.remove(slot, nodes)
      nodes[slot].region = .protected
      protected.append(slot, nodes)
      demoteProtectedOverflow()
    }
  }

  /// Moves window entry `slot` to the most recently used end of main's protected
  /// segment (of probation when it is too costly for protected).
  @inlinable
  mutating func retire(_ slot: Int) {
    window.remove(slot, nodes)
    if nodes[slot].cost > protectedMaximum {
      nodes[slot].region = .probation
      probation.append(slot, nodes)
      return
    }
    nodes[slot].region = .protected
    protected.append(slot, nodes)
    demoteProtectedOverflow()
  }

  /// Moves the least recently used protected entries to probation while the
  /// protected segment is over its maximum.
  @inlinable
  mutating func demoteProtectedOverflow() {
    var moved = 0
    while protected.cost > protectedMaximum && moved < Self.transferLimit {
      let demoted = protected.head
      if demoted < 0 { break }
      protected.remove(demoted, nodes)
      nodes[demoted].region = .probation
      probation.append(demoted, nodes)
      moved += 1
    }
  }

  // MARK: Adding, updating, removing

  /// Adds a new entry in `slot` (a free slot, or `nodes.count`) at the most
  /// recently used end of the window. Writes only the node's policy fields.
  @inlinable
  mutating func insert(_ slot: Int, cost: Int, hash: UInt64) {
    if slot == nodes.count { nodes.append() }
    let node = nodes.node(slot)
    node.pointee.cost = cost
    node.pointee.hash = hash
    node.pointee.region = .window
    node.pointee.uses = 0
    window.append(slot, nodes)
    if mode == .lru { return }
    sketch.ensureCapacity(count)
    sketch.increment(hash)
    if mode == .adaptiveWindow {
      if rejected.contains(hash) { climber.windowGains += 1 }
      if evictedFromMain.contains(hash) { climber.mainGains += 1 }
    }
  }

  /// Records a new value, of cost `cost`, stored in entry `slot`.
  @inlinable
  mutating func update(_ slot: Int, cost: Int) {
    let delta = cost - nodes[slot].cost
    // Written only when it changes: a memory level reads a node's cost under
    // another lock than the policy's (see ``SlotTable``).
    if delta != 0 { nodes[slot].cost = cost }
    switch nodes[slot].region {
    case .window: window.cost += delta
    case .probation: probation.cost += delta
    case .protected: protected.cost += delta
    }
    if mode == .lru {
      window.moveToBack(slot, nodes)
      return
    }
    sketch.increment(nodes[slot].hash)
    touch(slot)
  }

  /// Removes entry `slot` from the policy.
  @inlinable
  mutating func remove(_ slot: Int) {
    switch nodes[slot].region {
    case .window: window.remove(slot, nodes)
    case .probation: probation.remove(slot, nodes)
    case .protected: protected.remove(slot, nodes)
    }
  }

  /// Forgets every entry and every count, keeping the configuration.
  @inlinable
  mutating func removeAll() {
    self = WindowTinyLFU(capacity: capacity, mode: mode, random: random, nodes: nodes)
  }

  // MARK: Eviction

  /// Evicts entries until the total cost fits the capacity, never evicting
  /// `pinned`; appends the evicted slots to `evicted`. Then lets the window adapt.
  ///
  /// `pinned` alone must fit the capacity.
  @inlinable
  mutating func evict(pinned: Int, into evicted: inout [Int]) {
    if mode == .lru {
      evictLeastRecentlyUsed(pinned: pinned, into: &evicted)
      return
    }
    let firstCandidate = moveWindowOverflowToProbation(pinned: pinned)
    evictFromMain(firstCandidate: firstCandidate, pinned: pinned, into: &evicted)
    if windowGrowthPending { fillWindowFromMain() }
    if mode == .adaptiveWindow { adaptWindow(evicted: !evicted.isEmpty) }
  }

  /// LRU mode: evicts the window's least recently used entries.
  @inlinable
  mutating func evictLeastRecentlyUsed(pinned: Int, into evicted: inout [Int]) {
    while totalCost > capacity {
      var victim = window.head
      if victim == pinned { victim = nodes[victim].next }
      if victim < 0 { return }
      window.remove(victim, nodes)
      evicted.append(victim)
    }
  }

  /// Moves the window's least recently used entries to the probation segment
  /// while the window is over its maximum; returns the first one moved, or -1.
  @inlinable
  mutating func moveWindowOverflowToProbation(pinned: Int) -> Int {
    var first = -1
    var node = window.head
    var moved = 0
    while window.cost > windowMaximum && node >= 0 && moved < Self.transferLimit {
      let next = nodes[node].next
      if node != pinned {
        window.remove(node, nodes)
        nodes[node].region = .probation
        probation.append(node, nodes)
        if first < 0 { first = node }
        moved += 1
      }
      node = next
    }
    return first
  }

  /// Evicts until the total cost fits: candidates (from `firstCandidate` on in
  /// probation, then the window's entries) duel the probation victims; when one
  /// side runs out, the other is evicted in order; when both do, victims are taken
  /// from protected, then from the window. While entries are retired, main's
  /// victims (probation, then protected) are evicted without a duel before the
  /// window's entries are taken as candidates.
  @inlinable
  mutating func evictFromMain(firstCandidate: Int, pinned: Int, into evicted: inout [Int]) {
    var candidate = firstCandidate
    var candidatesFromWindow = false
    var victim = probation.head
    var victimRegion = CacheRegion.probation
    while totalCost > capacity {
      if candidate == pinned { candidate = nodes[candidate].next }
      if victim == pinned { victim = nodes[victim].next }
      if candidate < 0 && !candidatesFromWindow {
        if reuse.retiring && mode == .adaptiveWindow {
          if victim < 0 && victimRegion == .probation {
            victimRegion = .protected
            victim = protected.head
            continue
          }
          if victim >= 0 {
            let evictee = victim
            victim = nodes[evictee].next
            evictEntry(evictee, rejected: false, into: &evicted)
            continue
          }
        }
        candidatesFromWindow = true
        candidate = window.head
        continue
      }
      if candidate < 0 && victim < 0 {
        switch victimRegion {
        case .probation:
          victimRegion = .protected
          victim = protected.head
          continue
        case .protected:
          victimRegion = .window
          victim = window.head
          continue
        case .window:
          return  // only `pinned` is left
        }
      }
      if victim < 0 {
        let evictee = candidate
        candidate = nodes[evictee].next
        evictEntry(evictee, rejected: true, into: &evicted)
      } else if candidate < 0 {
        let evictee = victim
        victim = nodes[evictee].next
        evictEntry(evictee, rejected: victimRegion == .window, into: &evicted)
      } else if candidate == victim {
        victim = nodes[victim].next
        evictEntry(candidate, rejected: true, into: &evicted)
        candidate = -1
      } else if admit(candidate: nodes[candidate].hash, victim: nodes[victim].hash) {
        let evictee = victim
        victim = nodes[evictee].next
        candidate = nodes[candidate].next
        evictEntry(evictee, rejected: false, into: &evicted)
      } else if mode == .adaptiveWindow && victimRegion == .probation,
        let weaker = rarerEntry(after: victim, than: candidate, pinned: pinned)
      {
        // The candidate stays; a clearly rarer entry behind the victim goes.
        candidate = nodes[candidate].next
        evictEntry(weaker, rejected: false, reachedEnd: false, into: &evicted)
      } else {
        let evictee = candidate
        candidate = nodes[evictee].next
        evictEntry(evictee, rejected: true, into: &evicted)
      }
    }
  }

  /// Among the probation entries that follow `victim` (``evictionSample`` − 1
  /// of them at most, stopping at `candidate`, skipping `pinned`), the least
  /// frequent one, if it is at least ``sampleMargin`` less frequent than
  /// `candidate`; otherwise nil.
  @inlinable
  @inline(__always)  // called on `self` as it is: a call would copy the whole policy
  func rarerEntry(after victim: Int, than candidate: Int, pinned: Int) -> Int? {
    var rarest: Int?
    var threshold = sketch.frequency(nodes[candidate].hash) - Self.sampleMargin
    // No count is below zero: a candidate this rare leaves nothing to look for.
    guard threshold >= 0 else { return nil }
    var node = nodes[victim].next
    var compared = 1
    while node >= 0 && node != candidate && compared < Self.evictionSample {
      if node != pinned {
        let frequency = sketch.frequency(nodes[node].hash)
        if frequency <= threshold {
          rarest = node
          threshold = frequency - 1
        }
        compared += 1
      }
      node = nodes[node].next
    }
    return rarest
  }

  /// Whether the candidate should replace the victim in main.
  @inlinable
  mutating func admit(candidate: UInt64, victim: UInt64) -> Bool {
    Self.admits(
      candidateFrequency: sketch.frequency(candidate), victimFrequency: sketch.frequency(victim),
      random: &random)
  }

  /// The admission rule: the more frequent key wins, and a tie evicts the
  /// candidate; yet a warm candidate that would lose gets in with probability
  /// 1/128. Shared with ``MiniatureCache``, so a miniature admits as the real
  /// cache would.
  @inlinable
  static func admits(candidateFrequency: Int, victimFrequency: Int, random: inout SplitMix64)
    -> Bool
  {
    if candidateFrequency > victimFrequency { return true }
    if candidateFrequency < warmFrequency { return false }
    return random.next() & 127 == 0
  }

  /// Removes entry `slot` from its region, reports it as evicted, and (adaptive
  /// mode) remembers it as a ghost: `rejected` for the window side, otherwise main.
  /// An entry evicted before it reached the least recently used end of its
  /// region (`reachedEnd` false: sampled eviction) did not get the whole
  /// lifetime the ``ReuseIndicator`` measures reuse over, so it is not counted
  /// there.
  @inlinable
  mutating func evictEntry(
    _ slot: Int, rejected isRejected: Bool, reachedEnd: Bool = true, into evicted: inout [Int]
  ) {
    remove(slot)
    evicted.append(slot)
    guard mode == .adaptiveWindow else { return }
    if reachedEnd {
      reuse.recordEviction(uses: nodes[slot].uses, hash: nodes[slot].hash, entries: sketch.sizedFor)
    }
    if isRejected {
      rejected.add(nodes[slot].hash)
    } else {
      evictedFromMain.add(nodes[slot].hash)
    }
  }

  // MARK: Adaptation

  /// Starts the climber once the cache is full; at the end of each of its
  /// periods, resizes the window as it decides.
  @inlinable
  mutating func adaptWindow(evicted: Bool) {
    if !climber.started {
      guard evicted else { return }
      climber.start()
      resizeGhosts()
      // Seeded without drawing from the cache's own generator, so that while
      // the window stays at 1 % the cache admits exactly as the fixed policy.
      lruModel.configure(entries: count, seed: random.state ^ 0x4C52_5531)
      fixedModel.configure(entries: count, seed: random.state ^ 0x4649_5845)
    }
    if climber.periodIsComplete(entries: sketch.sizedFor) {
      compareWithModels()
      updateModelPreference()
    }
    guard
      let change = climber.adjustment(
        entries: sketch.sizedFor, averageCost: Double(totalCost) / Double(Swift.max(1, count)))
    else { return }
    resizeGhosts()
    if change != 0 {
      let before = windowMaximum
      resizeWindow(to: before + change)
      // A move cut short at 0 or at the capacity counts for what it did.
      if climber.lastMove != 0 {
        climber.runDistance += windowMaximum - before - climber.lastMove
        climber.lastMove = windowMaximum - before
      }
    }
  }

  /// At the end of a period: when a miniature did significantly better than the
  /// cache (on its evidence so far, older periods counting half as much each
  /// period), asks the climber to move the window to that miniature's
  /// configuration (the larger lead wins; the climber then bans the way back
  /// for a while) — unless the other miniature did better than this one over
  /// the long run. The period after such a move is a changeover and is not
  /// compared.
  @inlinable
  mutating func compareWithModels() {
    if modelsSettling {
      // The period after a forced move: the cache's contents were still
      // changing over, so its hits say nothing about the new configuration.
      // Its counts are dropped; the evidence from before the move comes back.
      modelsSettling = false
      lruModel.restoreCounts()
      fixedModel.restoreCounts()
      return
    }
    var lruLead =
      windowMaximum < capacity ? lruModel.lead(minimumLead: Self.modelMinimumLead) : 0
    var fixedLead =
      windowMaximum > minimumWindow ? fixedModel.lead(minimumLead: Self.modelMinimumLead) : 0
    // An end that did worse than the other over the long run is not gone to
    // on a short lead: on a workload with phases (a zigzag, a trace with
    // bursts) each end leads now and then, and every jump costs a changeover.
    switch Self.leader(lruOnlyLongRun, fixedOnlyLongRun, confidence: Self.preferenceConfidence) {
    case 1: fixedLead = 0
    case -1: lruLead = 0
    default: break
    }
    lruOnlyLongRun -= lruOnlyLongRun >> Self.longRunDecayShift
    fixedOnlyLongRun -= fixedOnlyLongRun >> Self.longRunDecayShift
    if lruLead > Self.modelConfidence && lruLead >= fixedLead {
      climber.forcedMove = capacity - windowMaximum
      modelsSettling = true
    } else if fixedLead > Self.modelConfidence {
      climber.forcedMove = minimumWindow - windowMaximum
      modelsSettling = true
    }
    lruModel.ageCounts()
    fixedModel.ageCounts()
    if modelsSettling {
      lruModel.saveCounts()
      fixedModel.saveCounts()
    }
  }

  /// At the end of a period: tells the climber which end of the window's range
  /// the miniatures found better, recently (``HillClimber/modelPreference``)
  /// and over the long run (``HillClimber/longRunPreference``), when one led
  /// the other by more than ``preferenceConfidence`` standard deviations of
  /// their discordant requests; then halves the recent counts.
  @inlinable
  mutating func updateModelPreference() {
    climber.modelPreference = Self.leader(lruOnly, fixedOnly, confidence: Self.preferenceConfidence)
    climber.longRunPreference = Self.leader(
      lruOnlyLongRun, fixedOnlyLongRun, confidence: Self.preferenceConfidence)
    lruOnly /= 2
    fixedOnly /= 2
  }

  /// +1 when `lruWins` lead `fixedWins` by more than `confidence` standard
  /// deviations of their sum (the discordant requests of a paired
  /// comparison), -1 in the opposite case, otherwise 0.
  @inlinable
  static func leader(_ lruWins: Int, _ fixedWins: Int, confidence: Double) -> Int {
    let lead = Double(lruWins - fixedWins)
    let margin = confidence * Double(lruWins + fixedWins).squareRoot()
    return lead > margin ? 1 : (-lead > margin ? -1 : 0)
  }

  /// Ghosts remember as many dropped keys as half the entries the cache holds.
  @inlinable
  mutating func resizeGhosts() {
    rejected.resize(limit: sketch.sizedFor / 2)
    evictedFromMain.resize(limit: sketch.sizedFor / 2)
  }

  /// Sets the window's maximum to `newMaximum` (clamped to
  /// ``minimumWindow`` ... capacity) and
  /// gives the rest to main (80 % of it protected). A larger window takes main's
  /// least recently used entries (up to ``transferLimit`` now, the rest at the
  /// next evictions); a smaller one keeps its entries until
  /// the next stores push the overflow out as candidates, which must win
  /// admission to stay.
  @inlinable
  mutating func resizeWindow(to newMaximum: Int) {
    windowMaximum = Swift.min(Swift.max(minimumWindow, newMaximum), capacity)
    protectedMaximum = Int(Self.protectedShare * Double(capacity - windowMaximum))
    fillWindowFromMain()
    demoteProtectedOverflow()
  }

  /// Moves main's least recently used entries (probation's, then protected's)
  /// into the window while it has room, at most ``transferLimit`` of them;
  /// sets ``windowGrowthPending`` when that limit cut the move short.
  @inlinable
  mutating func fillWindowFromMain() {
    var moved = 0
    while moved < Self.transferLimit {
      var entry = probation.head
      if entry < 0 { entry = protected.head }
      if entry < 0 || window.cost + nodes[entry].cost > windowMaximum {
        windowGrowthPending = false
        return
      }
      remove(entry)
      nodes[entry].region = .window
      window.append(entry, nodes)
      moved += 1
    }
    windowGrowthPending = true
  }
}
