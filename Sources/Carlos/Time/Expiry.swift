import Foundation

/// When a stored value stops being valid.
///
/// An expired value is never returned: a get of it is a miss. Give an expiry to a
/// level as its policy (``ExpirationPolicy``) or to one value when you store it
/// (``CacheLevel/set(_:forKey:expiry:)``):
///
/// ```swift
/// cache.set(token, forKey: "session", expiry: .after(.seconds(300)))
/// cache.set(report, forKey: "daily", expiry: .at(midnight))
/// ```
///
/// Bad input is safe: a zero or negative duration, or a date in the past, means
/// "already expired" (the set stores nothing and removes any older value); a positive
/// duration counts in whole nanoseconds, rounded up, so even one shorter than a
/// nanosecond stores the value; a duration or date too far away to represent means
/// "as late as representable".
public enum Expiry: Sendable, Hashable, CustomStringConvertible {
  /// The value never expires.
  case never
  /// The value expires this long after it is stored.
  case after(Duration)
  /// The value expires at this moment.
  case at(Date)

  /// The moment a value stored at `now` expires, or `nil` when it never does.
  @inlinable
  func deadline(storedAt now: CacheInstant) -> CacheInstant? {
    switch self {
    case .never: return nil
    case .after(let duration): return now.adding(duration)
    case .at(let date): return CacheInstant(date)
    }
  }

  /// A human-readable description.
  public var description: String {
    switch self {
    case .never: return "never"
    case .after(let duration): return "after \(duration)"
    case .at(let date): return "at \(date)"
    }
  }
}
