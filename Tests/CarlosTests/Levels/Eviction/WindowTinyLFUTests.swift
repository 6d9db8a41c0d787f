import Testing

@testable import Carlos

/// A value of a chosen cost.
private struct Costly: ExpensiveObject, Sendable {
  let key: Int
  let cost: Int
}

@Suite("WindowTinyLFU")
struct WindowTinyLFUTests {
  @Test("admits a candidate only when it is more frequent than the victim")
  func admission() {
    var policy = WindowTinyLFU(capacity: 100, mode: .fixedWindow, random: SplitMix64(seed: 4))
    policy.sketch.ensureCapacity(100)
    let frequent: UInt64 = 0x1234_5678_9ABC
    let rare: UInt64 = 0x0FED_CBA9_8765
    for _ in 0..<4 { policy.sketch.increment(frequent) }
    policy.sketch.increment(rare)
    let frequentWins = policy.admit(candidate: frequent, victim: rare)
    let rareWins = policy.admit(candidate: rare, victim: frequent)
    let tieWins = policy.admit(candidate: rare, victim: rare)  // a cold tie keeps the victim
    #expect(frequentWins)
    #expect(!rareWins)
    #expect(!tieWins)
  }

  @Test("a warm candidate wins a tie only rarely (about 1 in 128)")
  func warmTies() {
    var policy = WindowTinyLFU(capacity: 100, mode: .fixedWindow, random: SplitMix64(seed: 5))
    policy.sketch.ensureCapacity(100)
    let key: UInt64 = 0xABCD
    for _ in 0..<10 { policy.sketch.increment(key) }
    let wins = (0..<12_800).filter { _ in policy.admit(candidate: key, victim: key) }.count
    #expect(wins > 40 && wins < 200)
  }

  /// A policy of 10 entries whose probation holds keys 0...8 (0 the least
  /// recently used) and whose window holds key 9, with key `k` used
  /// `uses[k]` times in all (insertion included); then key 10 is stored,
  /// which pushes key 9 out of the window as the candidate. Returns the keys
  /// evicted by that store.
  func evictionAfterStoring(mode: WindowTinyLFU.Mode, uses: [Int]) throws -> [Int] {
    try storing(mode: mode, uses: uses).evicted
  }

  /// ``evictionAfterStoring(mode:uses:)``, with the policy after the store.
  func storing(mode: WindowTinyLFU.Mode, uses: [Int]) throws -> (
    evicted: [Int], policy: WindowTinyLFU
  ) {
    var policy = WindowTinyLFU(capacity: 10, mode: mode, random: SplitMix64(seed: 11))
    policy.sketch.ensureCapacity(100)  // no table growth or halving below
    func hash(_ key: Int) -> UInt64 { UInt64(key + 1) &* 0x9E37_79B9_7F4A_7C15 }
    for key in 0..<10 {
      policy.insert(key, cost: 1, hash: hash(key))
      var evicted: [Int] = []
      policy.evict(pinned: key, into: &evicted)
      try #require(evicted.isEmpty)
      for _ in 1..<uses[key] { policy.sketch.increment(hash(key)) }
    }
    for key in 0..<10 { try #require(policy.sketch.frequency(hash(key)) == uses[key]) }
    try #require(policy.probation.head == 0 && policy.window.head == 9)
    policy.insert(10, cost: 1, hash: hash(10))
    var evicted: [Int] = []
    policy.evict(pinned: 10, into: &evicted)
    return (evicted, policy)
  }

  @Test("a candidate that loses to a frequent victim evicts a clearly rarer entry behind it")
  func sampledEviction() throws {
    // Victim 0 is used 9 times, candidate 9 five times, entry 1 once.
    let uses = [9, 1, 5, 5, 5, 5, 5, 5, 5, 5]
    #expect(try evictionAfterStoring(mode: .adaptiveWindow, uses: uses) == [1])
    // The fixed policy (the reference of the hit-ratio tables) only duels the victim.
    #expect(try evictionAfterStoring(mode: .fixedWindow, uses: uses) == [9])
  }

  @Test("an entry evicted by sampling does not count as a full lifetime for the reuse indicator")
  func sampledEvictionIsCensored() throws {
    // Entry 1 is evicted before it reached probation's end: its lifetime was cut short.
    let sampled = try storing(mode: .adaptiveWindow, uses: [9, 1, 5, 5, 5, 5, 5, 5, 5, 5])
    #expect(sampled.evicted == [1])
    #expect(sampled.policy.reuse.evictedUnused == 0)
    // The rejected candidate did reach the end of the window.
    let rejected = try storing(mode: .adaptiveWindow, uses: [9, 5, 5, 5, 5, 5, 5, 5, 5, 5])
    #expect(rejected.evicted == [9])
    #expect(rejected.policy.reuse.evictedUnused == 1)
  }

  @Test("the rarest of the sampled entries goes; entries past the sample are not looked at")
  func sampledEvictionBounds() throws {
    // Entries 1...4 follow the victim within the sample of 5; entry 3 is the rarest.
    #expect(
      try evictionAfterStoring(mode: .adaptiveWindow, uses: [9, 3, 2, 1, 3, 5, 5, 5, 5, 5]) == [3])
    // Entry 5 is rare but sixth in probation: the candidate loses as before.
    #expect(
      try evictionAfterStoring(mode: .adaptiveWindow, uses: [9, 5, 5, 5, 5, 1, 5, 5, 5, 5]) == [9])
  }

  @Test("entries used about as often as the candidate are not traded for it (a loop stays put)")
  func sampledEvictionMargin() throws {
    // Entry 1 is one use short of the candidate: within what a halving can take.
    #expect(
      try evictionAfterStoring(mode: .adaptiveWindow, uses: [9, 4, 5, 5, 5, 5, 5, 5, 5, 5]) == [9])
    #expect(
      try evictionAfterStoring(mode: .adaptiveWindow, uses: [9, 3, 5, 5, 5, 5, 5, 5, 5, 5]) == [1])
  }

  @Test("the miniatures' comparison of the two ends reaches the climber each period")
  func preferenceFromMiniatures() {
    var policy = WindowTinyLFU(capacity: 100, mode: .adaptiveWindow, random: SplitMix64(seed: 6))
    policy.climber.start()
    // Only the LRU miniature hit on 60 requests, only the small-window one on 20.
    policy.lruOnly = 60
    policy.fixedOnly = 20
    policy.lruOnlyLongRun = 100
    policy.fixedOnlyLongRun = 300
    policy.updateModelPreference()  // 40 > √80 ≈ 8.9
    #expect(policy.climber.modelPreference == 1)
    #expect(policy.climber.longRunPreference == -1)  // 200 > √400 = 20
    #expect(policy.lruOnly == 30 && policy.fixedOnly == 10)  // older evidence halves
    policy.lruOnly = 10
    policy.fixedOnly = 14
    policy.updateModelPreference()  // 4 < √24 ≈ 4.9: no clear leader
    #expect(policy.climber.modelPreference == 0)
    policy.lruOnly = 0
    policy.fixedOnly = 30
    policy.updateModelPreference()
    #expect(policy.climber.modelPreference == -1)
  }

  @Test("W-TinyLFU keeps frequently used values through a scan; LRU does not")
  func scanResistance() {
    let lru = MemoryCacheLevel<Int, Int>(capacity: 100, policy: .lru)
    let tinyLFU = MemoryCacheLevel<Int, Int>(capacity: 100, policy: .tinyLFU)
    for cache in [lru, tinyLFU] {
      for _ in 0..<5 {
        for key in 0..<50 where cache.get(key).result?.value == nil { cache.set(key, forKey: key) }
      }
      for key in 1_000..<1_500 where cache.get(key).result?.value == nil {
        cache.set(key, forKey: key)
      }
    }
    let lruKept = (0..<50).filter { lru.get($0).result?.value != nil }.count
    let tinyLFUKept = (0..<50).filter { tinyLFU.get($0).result?.value != nil }.count
    #expect(lruKept == 0)
    #expect(tinyLFUKept >= 45)
  }

  /// Replays `trace` (get, and set on a miss) and returns the hit ratio.
  func replay(_ trace: [Int], into cache: MemoryCacheLevel<Int, Int>) -> Double {
    var hits = 0
    for key in trace {
      if cache.get(key).result?.value != nil {
        hits += 1
      } else {
        cache.set(key, forKey: key)
      }
    }
    return Double(hits) / Double(trace.count)
  }

  func windowMaximum(_ cache: MemoryCacheLevel<Int, Int>) -> Int {
    cache.withPolicy { $0.windowMaximum }
  }

  @Test("on a loop larger than the cache the window stays small, as frequency wins")
  func loopKeepsWindowSmall() {
    let trace = Array(repeating: Array(0..<250), count: 120).flatMap { $0 }
    let adaptive = MemoryCacheLevel<Int, Int>(capacity: 100, policy: .adaptiveTinyLFU)
    let ratio = replay(trace, into: adaptive)
    #expect(windowMaximum(adaptive) <= 10)
    #expect(ratio >= 0.3)  // LRU gets 0 here; the best possible is 0.4
  }

  @Test("on a loop just larger than the cache the window does not grow toward LRU")
  func nearLoopKeepsWindowSmall() {
    // Keys refused admission come back one loop later, which makes a larger
    // window look useful to the ghosts; the hit ratio's veto must win.
    let trace = Array(repeating: Array(0..<101), count: 500).flatMap { $0 }
    let adaptive = MemoryCacheLevel<Int, Int>(capacity: 100, policy: .adaptiveTinyLFU)
    let ratio = replay(trace, into: adaptive)
    #expect(ratio >= 0.9)  // LRU gets 0; the best possible is 0.98
    #expect(windowMaximum(adaptive) <= 20)
  }

  @Test("on a recency workload the window grows toward LRU")
  func recencyGrowsWindow() {
    // Each key is used twice, 30 steps apart: only recency predicts the reuse.
    var trace: [Int] = []
    for step in 0..<20_000 {
      trace.append(step)
      if step >= 30 { trace.append(step - 30) }
    }
    let adaptive = MemoryCacheLevel<Int, Int>(capacity: 100, policy: .adaptiveTinyLFU)
    let fixed = MemoryCacheLevel<Int, Int>(capacity: 100, policy: .tinyLFU)
    let lru = MemoryCacheLevel<Int, Int>(capacity: 100, policy: .lru)
    let adaptiveRatio = replay(trace, into: adaptive)
    let fixedRatio = replay(trace, into: fixed)
    let lruRatio = replay(trace, into: lru)
    #expect(windowMaximum(adaptive) >= 50)
    #expect(fixedRatio < 0.1)
    #expect(lruRatio > 0.45)
    #expect(adaptiveRatio > 0.3)  // it starts at the fixed policy's ratio, then climbs
  }

  /// Each step uses a new key; half the keys are used once more, 10 to 30 steps
  /// later (then never again): an entry that has been hit is dead.
  func onceOrTwice(steps: Int, seed: UInt64) -> [Int] {
    var random = SplitMix64(seed: seed)
    var due: [Int: Int] = [:]
    var trace: [Int] = []
    var next = 0
    for step in 0..<steps {
      if let key = due.removeValue(forKey: step) {
        trace.append(key)
        continue
      }
      trace.append(next)
      if Bool.random(using: &random) {
        var when = step + Int.random(in: 10...30, using: &random)
        while due[when] != nil { when += 1 }
        due[when] = next
      }
      next += 1
    }
    return trace
  }

  @Test("when hit entries are dead, they are retired and the policy beats LRU")
  func retiresDeadEntries() {
    let trace = onceOrTwice(steps: 60_000, seed: 11)
    let adaptive = MemoryCacheLevel<Int, Int>(capacity: 24, policy: .adaptiveTinyLFU)
    let lru = MemoryCacheLevel<Int, Int>(capacity: 24, policy: .lru)
    let adaptiveRatio = replay(trace, into: adaptive)
    let lruRatio = replay(trace, into: lru)
    #expect(adaptive.withPolicy { $0.reuse.retiring })
    #expect(adaptiveRatio > lruRatio + 0.03)  // LRU ≈ 0.27; the best possible is 1/3
  }

  @Test("on a frequency workload used entries are not retired")
  func keepsUsedEntries() {
    var random = SplitMix64(seed: 12)
    // A hot set of 50 keys (half the requests) and 5,000 cold ones.
    let trace = (0..<40_000).map { _ in
      Bool.random(using: &random)
        ? Int.random(in: 0..<50, using: &random) : Int.random(in: 50..<5_050, using: &random)
    }
    // Replayed through the policy itself with fixed hashes and a fixed
    // generator: through a memory level the outcome depends on the process's
    // hash seed, and the indicator ended up on in about 1 run in 150.
    var policy = WindowTinyLFU(capacity: 100, mode: .adaptiveWindow, random: SplitMix64(seed: 12))
    _ = replay(trace, into: &policy)
    #expect(!policy.reuse.retiring)
  }

  /// Replays `trace` through `policy` as a memory level of unit-cost entries
  /// does (a hit is recorded; a miss is recorded, then the key is stored and
  /// entries are evicted), with fixed hash values, so the outcome does not
  /// depend on the process's hash seed. Returns the hit ratio.
  func replay(_ trace: [Int], into policy: inout WindowTinyLFU) -> Double {
    var slotOfKey: [Int: Int] = [:]
    var keyOfSlot: [Int] = []
    var free: [Int] = []
    var hits = 0
    for key in trace {
      let hash = UInt64(truncatingIfNeeded: key &+ 1) &* 0x9E37_79B9_7F4A_7C15
      if let slot = slotOfKey[key] {
        policy.recordHit(slot)
        hits += 1
        continue
      }
      if policy.samplesMisses { policy.recordMiss(hash: hash) } else { policy.recordMiss() }
      let slot = free.popLast() ?? policy.nodes.count
      policy.insert(slot, cost: 1, hash: hash)
      if slot == keyOfSlot.count { keyOfSlot.append(key) } else { keyOfSlot[slot] = key }
      slotOfKey[key] = slot
      var evicted: [Int] = []
      policy.evict(pinned: slot, into: &evicted)
      for slot in evicted {
        slotOfKey[keyOfSlot[slot]] = nil
        free.append(slot)
      }
    }
    return Double(hits) / Double(trace.count)
  }

  @Test("a retired entry moves from the window to protected; a control entry stays")
  func retireMovesToMain() {
    var policy = WindowTinyLFU(capacity: 100, mode: .adaptiveWindow, random: SplitMix64(seed: 6))
    policy.reuse.retiring = true
    let retired: UInt64 = 0x0500_0000_0000
    let control: UInt64 = 0x77
    policy.insert(0, cost: 1, hash: retired)
    policy.insert(1, cost: 1, hash: control)
    policy.recordHit(0)
    policy.recordHit(1)
    #expect(policy.nodes[0].region == .protected)
    #expect(policy.nodes[1].region == .window)
    #expect(policy.protected.cost == 1 && policy.window.cost == 1)
    #expect(policy.nodes[0].uses == 1)
  }

  @Test("while retiring, weighted entries never exceed the capacity")
  func retiringCostBound() {
    var retiredRuns = 0
    for seed in 0..<10 {
      var random = SplitMix64(seed: UInt64(100 + seed))
      let capacity = Int.random(in: 40...80, using: &random)
      let cache = MemoryCacheLevel<Int, Costly>(capacity: capacity, policy: .adaptiveTinyLFU)
      var retired = false
      for key in onceOrTwice(steps: 20_000, seed: UInt64(seed)) {
        if cache.get(key).result?.value != nil { continue }
        let cost = Int.random(in: 1...3, using: &random)
        cache.set(Costly(key: key, cost: cost), forKey: key)
        let total = cache.totalCost
        #expect(total <= capacity, "seed \(seed): total \(total) > capacity \(capacity)")
        if total > capacity { return }
        retired = retired || cache.withPolicy { $0.reuse.retiring }
      }
      if retired { retiredRuns += 1 }
    }
    #expect(retiredRuns >= 7)  // the workload turns retiring on
  }

  @Test("a window grown by more than the transfer limit fills up over the next stores, then is LRU")
  func largeGrowthCompletes() {
    var policy = WindowTinyLFU(capacity: 3_000, mode: .fixedWindow, random: SplitMix64(seed: 9))
    var free: [Int] = []
    func store(_ key: UInt64) -> [Int] {
      let slot = free.popLast() ?? policy.nodes.count
      policy.insert(slot, cost: 1, hash: key &* 0x9E37_79B9_7F4A_7C15)
      var evicted: [Int] = []
      policy.evict(pinned: slot, into: &evicted)
      free += evicted
      return evicted
    }
    for key: UInt64 in 0..<3_000 { _ = store(key) }
    #expect(policy.window.count == 30 && policy.probation.count == 2_970)
    policy.resizeWindow(to: 3_000)
    // One move is bounded: the rest of main follows at the next evictions.
    #expect(policy.window.count == 30 + WindowTinyLFU.transferLimit)
    #expect(policy.windowGrowthPending)
    _ = store(3_000)
    _ = store(3_001)
    #expect(!policy.windowGrowthPending)
    #expect(policy.probation.count + policy.protected.count == 0)
    // The whole cache is now the window: the least recently used entry goes.
    let oldest = policy.window.head
    #expect(store(3_002) == [oldest])
  }

  @Test("the adaptive window never shrinks below the fixed policy's 1 % share")
  func windowFloor() {
    var policy = WindowTinyLFU(capacity: 1_000, mode: .adaptiveWindow, random: SplitMix64(seed: 7))
    #expect(policy.minimumWindow == 10)
    policy.resizeWindow(to: 500)
    #expect(policy.windowMaximum == 500)
    policy.resizeWindow(to: -40)
    #expect(policy.windowMaximum == 10)
    #expect(policy.protectedMaximum == 792)
  }

  /// A full adaptive policy of 1,000 entries whose miniatures are running.
  func runningPolicy() -> WindowTinyLFU {
    var policy = WindowTinyLFU(capacity: 1_000, mode: .adaptiveWindow, random: SplitMix64(seed: 8))
    policy.lruModel.configure(entries: 1_000)
    policy.fixedModel.configure(entries: 1_000)
    return policy
  }

  @Test("when the LRU miniature does significantly better, the window is sent to LRU")
  func lruMiniatureLeads() {
    var policy = runningPolicy()
    policy.resizeWindow(to: 200)
    policy.lruModel.modelOnly = 300
    policy.lruModel.realOnly = 100
    policy.lruModel.requests = 2_000
    policy.fixedModel.modelOnly = 150
    policy.fixedModel.realOnly = 100
    policy.fixedModel.requests = 2_000
    policy.compareWithModels()
    #expect(policy.climber.forcedMove == 800)
    #expect(policy.modelsSettling)
    // The next period is the changeover: its counts are dropped (the evidence
    // from before the move, halved, comes back), and nothing is decided.
    policy.climber.forcedMove = 0
    policy.lruModel.modelOnly = 900
    policy.lruModel.realOnly = 100
    policy.lruModel.requests = 4_000
    policy.compareWithModels()
    #expect(policy.climber.forcedMove == 0)
    #expect(!policy.modelsSettling)
    #expect(policy.lruModel.modelOnly == 150 && policy.lruModel.realOnly == 50)
    #expect(policy.lruModel.requests == 1_000)
  }

  @Test("when the small-window miniature does significantly better, the window goes back to 1 %")
  func fixedMiniatureLeads() {
    var policy = runningPolicy()
    policy.resizeWindow(to: 1_000)
    policy.fixedModel.modelOnly = 400
    policy.fixedModel.realOnly = 200
    policy.fixedModel.requests = 3_000
    // At LRU already, the LRU miniature is not consulted.
    policy.lruModel.modelOnly = 900
    policy.lruModel.requests = 3_000
    policy.compareWithModels()
    #expect(policy.climber.forcedMove == -990)
  }

  @Test("an end that did worse than the other over the long run is not jumped to")
  func longRunVeto() {
    // At LRU, the small-window miniature beats the cache this period...
    func fixedLeadsThisPeriod(lruOnlyLongRun: Int, fixedOnlyLongRun: Int) -> Int {
      var policy = runningPolicy()
      policy.resizeWindow(to: 1_000)
      policy.fixedModel.modelOnly = 400
      policy.fixedModel.realOnly = 200
      policy.fixedModel.requests = 3_000
      policy.lruOnlyLongRun = lruOnlyLongRun
      policy.fixedOnlyLongRun = fixedOnlyLongRun
      policy.compareWithModels()
      return policy.climber.forcedMove
    }
    // ...but over the long run LRU led it (200 > √1,800 ≈ 42): stay at LRU.
    #expect(fixedLeadsThisPeriod(lruOnlyLongRun: 1_000, fixedOnlyLongRun: 800) == 0)
    // A long run that is even, or favours the small window, lets it go there.
    #expect(fixedLeadsThisPeriod(lruOnlyLongRun: 1_000, fixedOnlyLongRun: 980) == -990)
    #expect(fixedLeadsThisPeriod(lruOnlyLongRun: 0, fixedOnlyLongRun: 0) == -990)
    // The long-run counts fade by 1/16 each compared period.
    var policy = runningPolicy()
    policy.lruOnlyLongRun = 1_600
    policy.fixedOnlyLongRun = 160
    policy.compareWithModels()
    #expect(policy.lruOnlyLongRun == 1_500 && policy.fixedOnlyLongRun == 150)
  }

  @Test("a lead that is small or not significant moves nothing, and old evidence fades")
  func noLeadNoMove() {
    var policy = runningPolicy()
    policy.resizeWindow(to: 200)
    policy.lruModel.modelOnly = 130  // 2 σ ahead of 100: not significant
    policy.lruModel.realOnly = 100
    policy.lruModel.requests = 2_000
    policy.fixedModel.modelOnly = 620  // 3.6 σ ahead, but 0.8 % of the requests
    policy.fixedModel.realOnly = 500
    policy.fixedModel.requests = 15_000
    policy.compareWithModels()
    #expect(policy.climber.forcedMove == 0)
    #expect(policy.lruModel.modelOnly == 65 && policy.lruModel.requests == 1_000)
  }

  @Test("on a workload where LRU is best, the adaptive policy gets close to LRU")
  func alternatingSweeps() {
    // Sweeps over 400 keys in alternating directions: each sweep starts with the
    // keys the last one read last, so only recency helps (LRU ≈ 24.6 %).
    var trace: [Int] = []
    for sweep in 0..<60 {
      trace += sweep % 2 == 0 ? Array(0..<400) : Array((0..<400).reversed())
    }
    let adaptive = MemoryCacheLevel<Int, Int>(capacity: 100, policy: .adaptiveTinyLFU)
    let lru = MemoryCacheLevel<Int, Int>(capacity: 100, policy: .lru)
    let adaptiveRatio = replay(trace, into: adaptive)
    let lruRatio = replay(trace, into: lru)
    #expect(adaptiveRatio > lruRatio - 0.015)
    #expect(windowMaximum(adaptive) == 100)
  }
}
