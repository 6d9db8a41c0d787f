import Testing

@testable import Carlos

@Suite("TimerWheel")
struct TimerWheelTests {
  static let second: Int64 = 1_000_000_000

  /// Advances `wheel` to `now` and returns the expired slots, sorted.
  private func advance(_ wheel: inout TimerWheel, to now: Int64) -> [Int] {
    var expired: [Int] = []
    wheel.advance(to: now, exact: true, expired: &expired)
    return expired.sorted()
  }

  @Test("an entry expires exactly when time reaches its deadline, at every scale")
  func expiresAtDeadline() {
    let start: Int64 = 1_700_000_000 * Self.second
    // Deadlines in each wheel: ms, s, min, h, days, and beyond the last wheel (a year).
    let offsets: [Int64] = [
      1_000_000, 3 * Self.second, 90 * Self.second, 2 * 3_600 * Self.second,
      5 * 86_400 * Self.second, 365 * 86_400 * Self.second,
    ]
    for offset in offsets {
      var wheel = TimerWheel(time: start)
      wheel.schedule(0, at: start + offset)
      // Approach the deadline in uneven steps: never early.
      var now = start
      while now < start + offset - 1 {
        now = min(start + offset - 1, now + offset / 7 + 12_345)
        #expect(advance(&wheel, to: now).isEmpty, "expired early at offset \(offset)")
      }
      #expect(advance(&wheel, to: start + offset) == [0], "offset \(offset)")
      #expect(wheel.count == 0)
    }
  }

  @Test("a jump far into the future expires everything due and keeps the rest")
  func bigJump() {
    let start: Int64 = 1_700_000_000 * Self.second
    var wheel = TimerWheel(time: start)
    for slot in 0..<1_000 {
      wheel.schedule(slot, at: start + Int64(slot) * 600 * Self.second)
    }
    let now = start + 300_000 * Self.second
    let expired = advance(&wheel, to: now)
    #expect(expired == Array(0...500))
    #expect(wheel.count == 499)
    #expect(advance(&wheel, to: start + 1_000 * 600 * Self.second) == Array(501..<1_000))
  }

  @Test("rescheduling and unscheduling move or drop an entry")
  func reschedule() {
    let start: Int64 = 0
    var wheel = TimerWheel(time: start)
    wheel.schedule(1, at: 5 * Self.second)
    wheel.schedule(2, at: 5 * Self.second)
    wheel.schedule(1, at: 50 * Self.second)
    wheel.unschedule(2)
    #expect(wheel.deadline(of: 2) == TimerWheel.none)
    #expect(advance(&wheel, to: 10 * Self.second).isEmpty)
    #expect(advance(&wheel, to: 50 * Self.second) == [1])
  }

  @Test(
    "a deadline moved within its bucket stays scheduled there and counts once; expiry follows the new deadline"
  )
  func rescheduleWithinBucket() {
    var wheel = TimerWheel(time: 0)
    let hour = 3_600 * Self.second
    wheel.schedule(7, at: hour)
    let bucket = wheel.bucket[7]
    wheel.schedule(7, at: hour + 1_000)  // a later set of the same key, nanoseconds after
    #expect(wheel.bucket[7] == bucket && wheel.count == 1)
    #expect(wheel.deadline(of: 7) == hour + 1_000)
    #expect(advance(&wheel, to: hour).isEmpty)  // not at the old deadline
    #expect(advance(&wheel, to: hour + 1_000) == [7])
    #expect(wheel.count == 0)
  }

  @Test("without exact, an entry due in the current tick waits for the tick to pass")
  func inexactWaitsForTick() {
    let tick: Int64 = 1 << 30
    var wheel = TimerWheel(time: 10 * tick)
    wheel.schedule(0, at: 10 * tick + 100)
    var expired: [Int] = []
    wheel.advance(to: 10 * tick + 200, expired: &expired)
    #expect(expired.isEmpty)
    wheel.advance(to: 11 * tick, expired: &expired)
    #expect(expired == [0])
  }

  @Test("advancing touches only the buckets passed, not every entry")
  func workIsProportional() {
    var wheel = TimerWheel(time: 0)
    // 10,000 entries an hour away, 100 due in a second.
    for slot in 0..<10_000 { wheel.schedule(slot, at: 3_600 * Self.second + Int64(slot)) }
    for slot in 10_000..<10_100 { wheel.schedule(slot, at: Self.second) }
    #expect(advance(&wheel, to: 2 * Self.second) == Array(10_000..<10_100))
    #expect(wheel.count == 10_000)
    #expect(wheel.processing.capacity < 1_000)
  }
}
