import Foundation

/// A moment in wall-clock time, in nanoseconds since 1970, as the levels keep it:
/// comparing and storing it costs an integer. Arithmetic saturates, so far-away
/// dates and huge durations cannot overflow.
struct CacheInstant: Sendable, Hashable, Comparable {
  /// Nanoseconds since 1970-01-01 00:00 UTC.
  var nanoseconds: Int64

  /// The earliest representable moment.
  static let distantPast = CacheInstant(nanoseconds: .min)
  /// The latest representable moment; a deadline here never comes.
  static let distantFuture = CacheInstant(nanoseconds: .max)

  init(nanoseconds: Int64) {
    self.nanoseconds = nanoseconds
  }

  /// The moment `date` names, saturated to the representable range.
  init(_ date: Date) {
    let value = date.timeIntervalSince1970 * 1e9
    if value.isNaN {
      nanoseconds = .min
    } else if value >= 9.2e18 {
      nanoseconds = .max
    } else if value <= -9.2e18 {
      nanoseconds = .min
    } else {
      nanoseconds = Int64(value)
    }
  }

  /// The same moment as a `Date`.
  var date: Date {
    Date(timeIntervalSince1970: Double(nanoseconds) / 1e9)
  }

  /// This moment moved by `duration`, saturated to the representable range.
  func adding(_ duration: Duration) -> CacheInstant {
    let (seconds, attoseconds) = duration.components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .distantPast : .distantFuture }
    let span = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
    if span.overflow { return seconds < 0 ? .distantPast : .distantFuture }
    return adding(nanoseconds: span.partialValue)
  }

  /// This moment moved by `delta` nanoseconds, saturated.
  func adding(nanoseconds delta: Int64) -> CacheInstant {
    let (sum, overflow) = nanoseconds.addingReportingOverflow(delta)
    if overflow { return delta < 0 ? .distantPast : .distantFuture }
    return CacheInstant(nanoseconds: sum)
  }

  static func < (lhs: CacheInstant, rhs: CacheInstant) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }
}
