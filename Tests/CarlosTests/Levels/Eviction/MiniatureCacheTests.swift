import Testing

@testable import Carlos

@Suite("MiniatureCache")
struct MiniatureCacheTests {
  /// A plain LRU of `capacity` keys, for reference: returns whether each request hits.
  func referenceLRU(_ trace: [UInt64], capacity: Int) -> [Bool] {
    var order: [UInt64] = []
    return trace.map { key in
      if let position = order.firstIndex(of: key) {
        order.remove(at: position)
        order.append(key)
        return true
      }
      order.append(key)
      if order.count > capacity { order.removeFirst() }
      return false
    }
  }

  /// A random trace over `keys` keys (hash values), skewed toward the first ones.
  func trace(count: Int, keys: Int, seed: UInt64) -> [UInt64] {
    var random = SplitMix64(seed: seed)
    return (0..<count).map { _ in
      let bound = Bool.random(using: &random) ? keys / 4 : keys
      return UInt64(Int.random(in: 0..<bound, using: &random)) &* 0x9E37_79B9_7F4A_7C15 | 1
    }
  }

  @Test("with every key sampled, the LRU miniature hits exactly when LRU does")
  func lruIsExact() {
    var sketch = FrequencySketch()
    sketch.ensureCapacity(64)
    for seed: UInt64 in 1...3 {
      var model = MiniatureCache(windowShare: 1)
      model.configure(entries: 40)
      let requests = trace(count: 5_000, keys: 120, seed: seed)
      let hits = requests.map {
        model.record($0, mixed: MiniatureCache.mix($0), realHit: false, sketch: sketch)
      }
      #expect(hits == referenceLRU(requests, capacity: 40), "seed \(seed)")
    }
  }

  @Test("the small-window miniature keeps a frequent key through a scan; the LRU one does not")
  func fixedWindowResistsScans() {
    var sketch = FrequencySketch()
    sketch.ensureCapacity(100)
    var lru = MiniatureCache(windowShare: 1)
    var fixed = MiniatureCache(windowShare: 0.01)
    lru.configure(entries: 100)
    fixed.configure(entries: 100)
    func request(_ key: UInt64) -> (lru: Bool, fixed: Bool) {
      sketch.increment(key)
      let mixed = MiniatureCache.mix(key)
      return (
        lru.record(key, mixed: mixed, realHit: false, sketch: sketch),
        fixed.record(key, mixed: mixed, realHit: false, sketch: sketch)
      )
    }
    let hot: [UInt64] = (1...20).map { $0 &* 0xABCD_EF01 }
    for _ in 0..<5 { for key in hot { _ = request(key) } }
    for key: UInt64 in 1_000..<1_500 { _ = request(key &* 0x1234_5677) }
    let after = hot.map { request($0) }
    #expect(after.filter(\.fixed).count >= 18)
    #expect(after.filter(\.lru).isEmpty)
  }

  @Test("a warm candidate that ties gets in about 1 time in 128, as in the real cache")
  func admitsAsTheRealCache() {
    // Every key equally warm: each new key ties with probation's victim.
    let keys: [UInt64] = (1...300).map { $0 &* 0x9E37_79B9_7F4A_7C15 | 1 }
    var sketch = FrequencySketch()
    sketch.ensureCapacity(1_000)
    for key in keys { for _ in 0..<8 { sketch.increment(key) } }
    var model = MiniatureCache(windowShare: 0.01)
    model.configure(entries: 100, seed: 3)
    // Fill it with the first 100 keys, then cycle over the other 200.
    for key in keys.prefix(100) {
      model.record(key, mixed: MiniatureCache.mix(key), realHit: false, sketch: sketch)
    }
    var hits = 0
    for _ in 0..<20 {
      for key in keys.suffix(200) {
        if model.record(key, mixed: MiniatureCache.mix(key), realHit: false, sketch: sketch) {
          hits += 1
        }
      }
    }
    // Without the tie-break, main would keep the first 100 keys for good and
    // the cycling keys would only pass through the one-key window: no hit at all.
    // With it, about 4,000 ties / 128 ≈ 31 of them got into main, and some hit.
    #expect(hits > 0)
    // Still rare: a cache that admitted every tie would hit nothing either
    // (a loop of 200 over 100 keys), and one admitting most would churn; the
    // main area keeps mostly the first keys.
    let firstKeysStill = keys.prefix(100).filter {
      model.record($0, mixed: MiniatureCache.mix($0), realHit: false, sketch: sketch)
    }.count
    #expect(firstKeysStill > 50)
  }

  @Test("a large cache is modelled by a sample of its keys, at the miniature's scale")
  func samplesLargeCaches() {
    var model = MiniatureCache(windowShare: 1)
    model.configure(entries: 10_240)
    #expect(model.capacity == MiniatureCache.maximumEntries)
    var random = SplitMix64(seed: 8)
    let sampled = (0..<100_000).filter { _ in model.isSampled(MiniatureCache.mix(random.next())) }
    // 1,024 / 10,240 of the keys: about 10,000 of 100,000.
    #expect(sampled.count > 9_400 && sampled.count < 10_600)
  }

  @Test("leads only on a significant share of discordant requests")
  func lead() {
    var sketch = FrequencySketch()
    sketch.ensureCapacity(16)
    var model = MiniatureCache(windowShare: 1)
    model.configure(entries: 10)
    // Ten keys in a loop: the miniature (10 keys) hits from the second round.
    for round in 0..<40 {
      for key: UInt64 in 1...10 {
        // The real cache hits only on even keys.
        let hash = key &* 0x51_7CC1_B727_220B
        model.record(
          hash, mixed: MiniatureCache.mix(hash), realHit: round > 0 && key % 2 == 0, sketch: sketch)
      }
    }
    #expect(model.modelOnly == 39 * 5)
    #expect(model.realOnly == 0)
    #expect(model.lead(minimumLead: 0.01) > 10)
    #expect(MiniatureCache.lead(60, 40, requests: 1_000, minimumLead: 0.01) < 3)  // 2 σ
    #expect(MiniatureCache.lead(110, 40, requests: 10_000, minimumLead: 0.01) == 0)  // < 1 %
    model.ageCounts()
    #expect(model.modelOnly == 39 * 5 / 2)
  }
}
