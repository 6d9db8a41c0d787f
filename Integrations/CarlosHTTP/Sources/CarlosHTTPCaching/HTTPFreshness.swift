#if HTTPCaching
import Foundation

/// How long a response stays fresh and how old it already is when it arrives
/// (RFC 9111, sections 4.2.1 and 4.2.3).
public enum HTTPFreshness {
  /// The freshness lifetime the response's headers state, in seconds, or `nil`
  /// when they state none.
  ///
  /// In order: `s-maxage` (for a shared cache only), `max-age`, then `Expires`
  /// minus `Date` (`responseTime` when `Date` is missing or invalid); an invalid
  /// `Expires` (such as `0`) means already stale (0). The first field of each kind counts.
  public static func lifetime(
    of headers: HTTPHeaderFields, shared: Bool, responseTime: Date
  ) -> TimeInterval? {
    let control = CacheControl(parsing: headers.values(for: "Cache-Control"))
    if shared, let seconds = control.sharedMaxAge { return TimeInterval(seconds) }
    if let seconds = control.maxAge { return TimeInterval(seconds) }
    return expiresLifetime(of: headers, responseTime: responseTime)
  }

  /// The lifetime `Expires` states: it minus `Date` (`responseTime` when `Date`
  /// is missing or invalid), 0 when `Expires` is invalid, `nil` when it is absent.
  public static func expiresLifetime(of headers: HTTPHeaderFields, responseTime: Date)
    -> TimeInterval?
  {
    guard let expires = headers["Expires"] else { return nil }
    guard let expiry = HTTPDate.parse(expires) else { return 0 }
    let date = headers["Date"].flatMap(HTTPDate.parse) ?? responseTime
    return max(0, expiry.timeIntervalSince(date))
  }

  /// The `Age` field's value in seconds (RFC 9111, section 5.1): the first
  /// member of the first field, when it is a non-negative integer (saturated at
  /// ``CacheControl/maximumDeltaSeconds``), parameters after a `;` ignored (as
  /// for a structured Integer item); `nil` when the field is absent or invalid,
  /// and then ignored.
  public static func age(of headers: HTTPHeaderFields) -> Int? {
    guard let first = headers["Age"] else { return nil }
    let member = first.split(separator: ",", omittingEmptySubsequences: false).first ?? ""
    let value = member.split(separator: ";", omittingEmptySubsequences: false).first ?? ""
    return deltaSeconds(String(value))
  }

  /// The corrected initial age of a response, in seconds: the larger of its
  /// apparent age (`responseTime` minus `Date`) and its `Age` field plus the time
  /// the request took.
  public static func initialAge(
    of headers: HTTPHeaderFields, requestTime: Date, responseTime: Date
  ) -> TimeInterval {
    let apparent =
      headers["Date"].flatMap(HTTPDate.parse).map {
        max(0, responseTime.timeIntervalSince($0))
      } ?? 0
    let ageField = age(of: headers) ?? 0
    let delay = max(0, responseTime.timeIntervalSince(requestTime))
    return max(apparent, TimeInterval(ageField) + delay)
  }

  /// A delta-seconds value (digits only), saturated at
  /// ``CacheControl/maximumDeltaSeconds``; `nil` when it is not one.
  static func deltaSeconds(_ text: String) -> Int? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
      return nil
    }
    var value = 0
    for digit in trimmed.utf8 {
      value = value * 10 + Int(digit - 0x30)
      if value >= CacheControl.maximumDeltaSeconds { return CacheControl.maximumDeltaSeconds }
    }
    return value
  }
}
#endif
