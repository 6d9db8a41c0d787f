import Foundation
import Testing

@testable import Carlos

@Suite("Expiry and CacheInstant")
struct ExpiryTests {
  let now = CacheInstant(nanoseconds: 1_700_000_000_000_000_000)

  /// Positive durations and the whole nanoseconds they count as.
  static let roundedUp: [(Duration, Int64)] = [
    (Duration(secondsComponent: 0, attosecondsComponent: 1), 1),
    (.nanoseconds(1) / 2, 1),
    (Duration(secondsComponent: 0, attosecondsComponent: 1_500_000_000), 2),
    (Duration(secondsComponent: 1, attosecondsComponent: 1), 1_000_000_001),
    (.nanoseconds(7), 7),
  ]

  @Test("never has no deadline; after and at give one")
  func deadlines() {
    #expect(Expiry.never.deadline(storedAt: now) == nil)
    #expect(
      Expiry.after(.seconds(2)).deadline(storedAt: now) == now.adding(nanoseconds: 2_000_000_000))
    let date = Date(timeIntervalSince1970: 1_800_000_000)
    #expect(Expiry.at(date).deadline(storedAt: now)?.date == date)
  }

  @Test(
    "a positive duration shorter than a nanosecond, or between two, rounds up: never to zero",
    arguments: roundedUp)
  func positiveRoundsUp(duration: Duration, nanoseconds: Int64) {
    #expect(Expiry.after(duration).deadline(storedAt: now) == now.adding(nanoseconds: nanoseconds))
    #expect(duration.nanoseconds == nanoseconds)
  }

  @Test("a negative duration shorter than a nanosecond is already past: its deadline is now")
  func negativeSubNanosecond() {
    let tiny = Duration(secondsComponent: 0, attosecondsComponent: -1)
    #expect(Expiry.after(tiny).deadline(storedAt: now)! <= now)
    #expect(tiny.nanoseconds == 0)
  }

  @Test("huge durations and far dates saturate instead of overflowing")
  func saturation() {
    #expect(Expiry.after(.seconds(Int64.max)).deadline(storedAt: now) == .distantFuture)
    #expect(Expiry.after(.seconds(-Int64.max)).deadline(storedAt: now) == .distantPast)
    #expect(Expiry.at(.distantFuture).deadline(storedAt: now)! > now)
    #expect(CacheInstant(Date(timeIntervalSince1970: 1e300)) == .distantFuture)
    #expect(CacheInstant(Date(timeIntervalSince1970: -1e300)) == .distantPast)
    #expect(CacheInstant(Date(timeIntervalSince1970: .nan)) == .distantPast)
    #expect(Duration.seconds(Int64.max).nanoseconds == .max)
    #expect(Duration.zero.nanoseconds == 0)
    #expect(Duration.seconds(-5).nanoseconds == 0)
  }

  @Test("a manual clock moves only when told, backwards too")
  func manualClock() {
    let clock = ManualClock(start: Date(timeIntervalSince1970: 100))
    #expect(clock.now() == Date(timeIntervalSince1970: 100))
    clock.advance(by: .seconds(5))
    #expect(clock.now() == Date(timeIntervalSince1970: 105))
    clock.set(to: Date(timeIntervalSince1970: 50))
    #expect(clock.now() == Date(timeIntervalSince1970: 50))
  }
}
