import Foundation

/// A moment in wall-clock time, in nanoseconds since 1970, as the levels keep it:
/// comparing and storing it costs an integer. Arithmetic saturates, so far-away
/// dates and huge durations cannot overflow.
@usableFromInline
struct CacheInstant: Sendable, Hashable, Comparable {
  /// Nanoseconds since 1970-01-01 00:00 UTC.
  @usableFromInline var nanoseconds: Int64

  /// The earliest representable moment.
  @usableFromInline static let distantPast = CacheInstant(nanoseconds: .min)
  /// The latest representable moment; a deadline here never comes.
  @usableFromInline static let distantFuture = CacheInstant(nanoseconds: .max)

  @inlinable
  init(nanoseconds: Int64) {
    self.nanoseconds = nanoseconds
  }

  /// The moment `date` names, saturated to the representable range.
  @inlinable
  init(_ date: Date) {
    let value = date.timeIntervalSince1970 * 1e9
    if value.isNaN {
      nanoseconds = .min
    } else if value >= 9.2e18 {
      nanoseconds = .max
    } else if value <= -9.2e18 {
      nanoseconds = .min
    } else {
      nanoseconds = Int64(value.rounded())
    }
  }

  /// The same moment as a `Date`.
  @inlinable
  var date: Date {
    Date(timeIntervalSince1970: Double(nanoseconds) / 1e9)
  }

  /// This moment moved by `duration` rounded up to a whole nanosecond, saturated to
  /// the representable range.
  @inlinable
  func adding(_ duration: Duration) -> CacheInstant {
    let (seconds, attoseconds) = duration.components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .distantPast : .distantFuture }
    // Rounded up to the next whole nanosecond, so a positive duration never counts
    // as zero (which would mean "already expired").
    let (fraction, remainder) = attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
    let span = whole.addingReportingOverflow(fraction + (remainder > 0 ? 1 : 0))
    if span.overflow { return seconds < 0 ? .distantPast : .distantFuture }
    return adding(nanoseconds: span.partialValue)
  }

  /// This moment moved by `delta` nanoseconds, saturated.
  @inlinable
  func adding(nanoseconds delta: Int64) -> CacheInstant {
    let (sum, overflow) = nanoseconds.addingReportingOverflow(delta)
    if overflow { return delta < 0 ? .distantPast : .distantFuture }
    return CacheInstant(nanoseconds: sum)
  }

  @inlinable
  static func < (lhs: CacheInstant, rhs: CacheInstant) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }
}

extension Duration {
  /// The duration in whole nanoseconds, saturated to `Int64`; at least 1 for a
  /// positive duration and 0 for others.
  @inlinable
  var nanoseconds: Int64 {
    if self <= .zero { return 0 }
    let instant = CacheInstant(nanoseconds: 0).adding(self).nanoseconds
    return Swift.max(1, instant)
  }
}
