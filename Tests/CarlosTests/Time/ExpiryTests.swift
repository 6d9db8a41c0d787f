import Foundation
import Testing

@testable import Carlos

@Suite("Expiry and CacheInstant")
struct ExpiryTests {
  let now = CacheInstant(nanoseconds: 1_700_000_000_000_000_000)

  @Test("never has no deadline; after and at give one")
  func deadlines() {
    #expect(Expiry.never.deadline(storedAt: now) == nil)
    #expect(
      Expiry.after(.seconds(2)).deadline(storedAt: now) == now.adding(nanoseconds: 2_000_000_000))
    let date = Date(timeIntervalSince1970: 1_800_000_000)
    #expect(Expiry.at(date).deadline(storedAt: now)?.date == date)
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
