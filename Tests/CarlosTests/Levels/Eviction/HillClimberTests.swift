import Testing

@testable import Carlos

@Suite("HillClimber")
struct HillClimberTests {
  /// Runs one full period of `requests` requests with the given outcomes.
  func period(
    _ climber: inout HillClimber, entries: Int, hits: Int, misses: Int,
    windowGains: Int, mainGains: Int
  ) -> Int? {
    climber.hits = hits
    climber.misses = misses
    climber.windowGains = windowGains
    climber.mainGains = mainGains
    return climber.adjustment(entries: entries, averageCost: 1)
  }

  @Test("does nothing before the cache is full")
  func waitsForStart() {
    var climber = HillClimber(capacity: 1_000)
    #expect(
      period(&climber, entries: 1_000, hits: 900, misses: 2_000, windowGains: 500, mainGains: 0)
        == nil)
  }

  @Test("moves toward the side whose ghosts are asked for again, and holds on a tie")
  func direction() {
    var climber = HillClimber(capacity: 1_000)
    climber.start()
    #expect(
      period(&climber, entries: 1_000, hits: 500, misses: 500, windowGains: 100, mainGains: 10)
        == 63)
    // The next period is 25 % longer: 1,000 requests are not enough.
    #expect(
      period(&climber, entries: 1_000, hits: 500, misses: 500, windowGains: 0, mainGains: 0) == nil)
    #expect(
      period(&climber, entries: 1_000, hits: 625, misses: 625, windowGains: 10, mainGains: 100)
        == -61)
    #expect(
      period(&climber, entries: 1_000, hits: 800, misses: 800, windowGains: 50, mainGains: 45) == 0)
  }

  @Test("the step decays each period, and restarts when the hit ratio jumps")
  func stepSchedule() {
    var climber = HillClimber(capacity: 10_000)
    climber.start()
    var requests = 10_000
    var steps: [Int] = []
    for _ in 0..<4 {
      _ = period(
        &climber, entries: 10_000, hits: requests / 2, misses: requests - requests / 2,
        windowGains: 200, mainGains: 0)
      steps.append(Int(climber.step.rounded()))
      requests = requests * 5 / 4 + 1
    }
    #expect(steps == [613, 600, 588, 576])
    // Hit ratio jumps from 50 % to 90 %: the step goes back to full size.
    _ = period(
      &climber, entries: 10_000, hits: requests * 9 / 10, misses: requests / 10 + 1,
      windowGains: 200, mainGains: 0)
    #expect(climber.step == 625)
  }

  @Test("a move followed by a large significant drop is undone and that direction banned")
  func veto() {
    var climber = HillClimber(capacity: 1_000)
    climber.start()
    let grow = period(
      &climber, entries: 1_000, hits: 900, misses: 100, windowGains: 100, mainGains: 0)
    #expect(grow == 63)
    // The hit ratio falls from 90 % to 60 % and the ghosts no longer favour the window: undo.
    let undo = period(
      &climber, entries: 1_000, hits: 750, misses: 500, windowGains: 10, mainGains: 10)
    #expect(undo == -63)
    #expect(climber.banned == 1)
    // While banned, growing is not allowed.
    let held = period(
      &climber, entries: 1_000, hits: 1_000, misses: 600, windowGains: 100, mainGains: 0)
    #expect(held == 0)
  }

  @Test("a drop is not blamed on a move that the ghosts of the same period still confirm")
  func noVetoWhenGhostsConfirm() {
    var climber = HillClimber(capacity: 1_000)
    climber.start()
    let grow = period(
      &climber, entries: 1_000, hits: 900, misses: 100, windowGains: 100, mainGains: 0)
    #expect(grow == 63)
    // Same 30-point drop, but window gains still lead clearly: the workload changed; keep
    // growing (one step: no momentum while the hit ratio falls).
    let next = period(
      &climber, entries: 1_000, hits: 750, misses: 500, windowGains: 100, mainGains: 0)
    #expect(next == 61)
    #expect(climber.banned == 0)
  }

  @Test("a run of moves the ghosts insist on is undone as a whole after three falls in a row")
  func runVeto() {
    var climber = HillClimber(capacity: 1_000)
    climber.start()
    // The ghosts keep calling for a larger window while every move loses hits
    // (a loop slightly larger than the cache): 90 %, 88 %, 86 %, 84 %.
    func next(hits: Int) -> Int? {
      period(
        &climber, entries: 1_000, hits: hits, misses: 2_000 - hits, windowGains: 100, mainGains: 0)
    }
    #expect(next(hits: 1_800) == 63)
    #expect(next(hits: 1_760) == 61)  // one fall: could be the workload, keep going
    #expect(next(hits: 1_720) == 60)
    // The third fall in a row, 6 points below where the run began: undo all three moves.
    #expect(next(hits: 1_680) == -184)
    #expect(climber.banned == 1)
    // While banned, growing is not allowed.
    let held = period(
      &climber, entries: 1_000, hits: 2_250, misses: 250, windowGains: 100, mainGains: 0)
    #expect(held == 0)
  }

  @Test(
    "momentum: moves double while they keep one direction, up to four steps, and reset on a turn")
  func momentum() {
    var climber = HillClimber(capacity: 10_000)
    climber.start()
    // Period lengths 10,000 · 1.25ⁿ (rounded up to even), at a steady 50 % hit ratio.
    var lengths = [10_000, 12_500, 15_626, 19_532, 24_416][...]
    func next(windowGains: Int, mainGains: Int) -> Int {
      let requests = lengths.removeFirst()
      return period(
        &climber, entries: 10_000, hits: requests / 2, misses: requests / 2,
        windowGains: windowGains, mainGains: mainGains) ?? 0
    }
    // Steps 625, 613, 600, 588, 576 (2 % decay), times 1, 2, 4, 4, then 1 after the turn.
    #expect(next(windowGains: 200, mainGains: 0) == 625)
    #expect(next(windowGains: 200, mainGains: 0) == 1_225)
    #expect(next(windowGains: 200, mainGains: 0) == 2_401)
    #expect(next(windowGains: 200, mainGains: 0) == 2_353)
    #expect(next(windowGains: 0, mainGains: 200) == -576)
    #expect(climber.boost == 1)
  }

  @Test("momentum stops when the hit ratio falls, even if the ghosts keep the direction")
  func momentumNeedsImprovement() {
    var climber = HillClimber(capacity: 10_000)
    climber.start()
    #expect(
      period(&climber, entries: 10_000, hits: 5_000, misses: 5_000, windowGains: 200, mainGains: 0)
        == 625)
    // 50 % → 48 %: not a veto (under 5 points), the same direction, but no boost.
    #expect(
      period(&climber, entries: 10_000, hits: 6_000, misses: 6_500, windowGains: 200, mainGains: 0)
        == 613)
    #expect(climber.boost == 1)
  }

  @Test("the ghosts are not followed toward the end the miniatures found worse")
  func miniaturesVeto() {
    // The same ghost counts, which call for a larger window, under each preference.
    func firstMove(preference: Int) -> Int? {
      var climber = HillClimber(capacity: 1_000)
      climber.start()
      climber.modelPreference = preference
      return period(
        &climber, entries: 1_000, hits: 500, misses: 500, windowGains: 100, mainGains: 10)
    }
    #expect(firstMove(preference: -1) == 0)  // the small window did better: stay
    #expect(firstMove(preference: 0) == 63)
    #expect(firstMove(preference: 1) == 63)
    // And the other way round: shrinking is held back when LRU did better,
    // recently or over the long run.
    for (recent, longRun) in [(1, 0), (0, 1), (-1, 1)] {
      var climber = HillClimber(capacity: 1_000)
      climber.start()
      climber.modelPreference = recent
      climber.longRunPreference = longRun
      #expect(
        period(&climber, entries: 1_000, hits: 500, misses: 500, windowGains: 10, mainGains: 100)
          == 0, "recent \(recent), long run \(longRun)")
    }
  }

  @Test("the direction rule needs two standard deviations")
  func significance() {
    #expect(HillClimber.direction(windowGains: 30, mainGains: 10) == 1)  // 20 > 2·√40 ≈ 12.6
    #expect(HillClimber.direction(windowGains: 12, mainGains: 6) == 0)  // 6 < 2·√18 ≈ 8.5
    #expect(HillClimber.direction(windowGains: 0, mainGains: 9) == -1)  // 9 > 6
    #expect(HillClimber.direction(windowGains: 0, mainGains: 0) == 0)
  }
}

@Suite("HillClimber forced moves")
struct HillClimberForcedMoveTests {
  @Test("a forced move is made at once, whatever the ghosts say, and the way back is banned")
  func forcedMove() {
    var climber = HillClimber(capacity: 1_000)
    climber.start()
    climber.hits = 500
    climber.misses = 500
    climber.mainGains = 300  // the ghosts call for a smaller window
    climber.forcedMove = 990
    #expect(climber.adjustment(entries: 1_000, averageCost: 1) == 990)
    #expect(climber.forcedMove == 0)
    #expect(climber.banned == -1 && climber.banRemaining == HillClimber.firstBan)
    // The next period's ghosts still call for shrinking: banned, so it stays.
    climber.hits = 625
    climber.misses = 625
    climber.mainGains = 300
    #expect(climber.adjustment(entries: 1_000, averageCost: 1) == 0)
  }
}
