import Testing

@testable import Carlos

@Suite("ReuseIndicator")
struct ReuseIndicatorTests {
  /// A hash in the control group (bits 40–43 are zero) and one outside it.
  let control: UInt64 = 0x1234_5678
  let other: UInt64 = 0x0300_0000_0000

  @Test("the control group is one sixteenth of the hash space")
  func controlGroup() {
    var random = SplitMix64(seed: 3)
    let members = (0..<16_000).filter { _ in ReuseIndicator.isControl(random.next()) }.count
    #expect(ReuseIndicator.isControl(control))
    #expect(!ReuseIndicator.isControl(other))
    #expect(members > 800 && members < 1_200)
  }

  /// Feeds `rounds` new entries: each is hit with `firstUse` (out of 10), and a hit
  /// control entry is hit again with `secondUse` (out of 10), else evicted.
  func feed(_ indicator: inout ReuseIndicator, firstUse: Int, secondUse: Int, rounds: Int) {
    for round in 0..<rounds {
      if round % 10 < firstUse {
        indicator.recordHit(uses: 0, hash: control)
        if (round / 10) % 10 < secondUse {
          indicator.recordHit(uses: 1, hash: control)
          indicator.recordEviction(uses: 2, hash: control, entries: 10)
        } else {
          indicator.recordEviction(uses: 1, hash: control, entries: 10)
        }
      } else {
        indicator.recordEviction(uses: 0, hash: control, entries: 10)
      }
    }
  }

  @Test("retires when used entries are never used again")
  func deadAfterUse() {
    var indicator = ReuseIndicator()
    feed(&indicator, firstUse: 5, secondUse: 0, rounds: 200)
    #expect(indicator.retiring)
  }

  @Test("does not retire when used entries come back as often as new ones are used")
  func reusedAfterUse() {
    var indicator = ReuseIndicator()
    feed(&indicator, firstUse: 5, secondUse: 5, rounds: 200)
    #expect(!indicator.retiring)
  }

  @Test("retires only below half the first-use rate")
  func margin() {
    var indicator = ReuseIndicator()
    feed(&indicator, firstUse: 6, secondUse: 4, rounds: 200)  // 0.4 ≥ 0.6 / 2
    #expect(!indicator.retiring)
    feed(&indicator, firstUse: 6, secondUse: 2, rounds: 400)  // 0.2 < 0.6 / 2
    #expect(indicator.retiring)
    feed(&indicator, firstUse: 6, secondUse: 5, rounds: 400)  // the workload changes back
    #expect(!indicator.retiring)
  }

  @Test("counts second uses only in the control group")
  func secondUsesFromControlOnly() {
    var indicator = ReuseIndicator()
    indicator.recordHit(uses: 1, hash: other)
    indicator.recordEviction(uses: 1, hash: other, entries: 10)
    #expect(indicator.secondHits == 0 && indicator.evictedUsedOnce == 0)
    indicator.recordHit(uses: 1, hash: control)
    indicator.recordEviction(uses: 1, hash: control, entries: 10)
    #expect(indicator.secondHits == 1 && indicator.evictedUsedOnce == 1)
  }

  @Test("decides once enough new entries are resolved, then halves its counts")
  func decisionHalves() {
    var indicator = ReuseIndicator()
    for _ in 0..<40 { indicator.recordHit(uses: 0, hash: other) }
    for _ in 0..<10 { indicator.recordEviction(uses: 1, hash: control, entries: 10) }
    #expect(!indicator.retiring)  // 50 resolved so far: not yet 8 × 10
    for _ in 0..<41 { indicator.recordEviction(uses: 0, hash: other, entries: 10) }
    #expect(indicator.retiring)
    #expect(indicator.firstHits == 20 && indicator.evictedUnused == 20)
    #expect(indicator.evictedUsedOnce == 5)
  }

  @Test("does not retire without evidence about used entries")
  func noEvidence() {
    var indicator = ReuseIndicator()
    for _ in 0..<100 { indicator.recordHit(uses: 0, hash: control) }
    indicator.decide()
    #expect(!indicator.retiring)
  }
}
