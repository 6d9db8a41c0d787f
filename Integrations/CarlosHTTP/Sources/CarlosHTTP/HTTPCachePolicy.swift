import Foundation

/// The rules an ``HTTPCache`` follows (RFC 9111): whether it is shared, and how
/// long it keeps a stale response it can revalidate.
///
/// ```swift
/// let cache = HTTPCache(storage: memory, origin: http, policy: .private)
/// ```
public struct HTTPCachePolicy: Hashable, Sendable {
  /// Whether the cache is shared between users (a proxy or a server's cache):
  /// it then honours `s-maxage`, never stores `private` responses, and stores a
  /// response to a request with `Authorization` only when the response allows it.
  public var isShared: Bool
  /// How long a response with validators (`ETag`, `Last-Modified`) is kept after
  /// it becomes stale, to be revalidated with a conditional request instead of
  /// fetched again.
  public var staleRetention: Duration

  /// A shared cache keeping revalidatable responses one day past freshness.
  public static let shared = HTTPCachePolicy(isShared: true)
  /// A private (single-user) cache keeping revalidatable responses one day past freshness.
  public static let `private` = HTTPCachePolicy(isShared: false)

  /// Creates a policy.
  public init(isShared: Bool = true, staleRetention: Duration = .seconds(86_400)) {
    self.isShared = isShared
    self.staleRetention = staleRetention
  }

  /// The statuses a cache may store (the heuristically cacheable ones of RFC 9110,
  /// section 15.1, except 206, and 302 and 307, which need explicit freshness).
  public static let storableStatuses: Set<Int> = [
    200, 203, 204, 300, 301, 302, 307, 308, 404, 405, 410, 414, 501,
  ]

  /// The methods whose responses a cache stores.
  static let cacheableMethods: Set<String> = ["GET", "HEAD"]

  /// The record to store for `response`, the answer to `request`, or `nil` when it
  /// must not be stored.
  ///
  /// Not stored: methods other than GET and HEAD, `no-store` in the request or
  /// the response, `private` in a shared cache, `Vary: *`, a status outside
  /// ``storableStatuses``, 302 and 307 without an explicit lifetime, a request with
  /// `Authorization` in a shared cache unless the response has `public`,
  /// `s-maxage` or `must-revalidate`, and a response that is stale at once and
  /// has no validator to revalidate it with. Freshness comes only from the
  /// response's own fields (no heuristic): without `max-age`, `s-maxage` or
  /// `Expires`, and with `no-cache`, the response is stored stale and revalidated
  /// on each use.
  public func record(
    for response: HTTPResponse, to request: HTTPRequestKey, requestTime: Date,
    responseTime: Date
  ) -> HTTPCacheRecord? {
    guard Self.cacheableMethods.contains(request.method),
      Self.storableStatuses.contains(response.status)
    else { return nil }
    let requestControl = CacheControl(parsing: request.headers.values(for: "Cache-Control"))
    let control = CacheControl(parsing: response.headers.values(for: "Cache-Control"))
    if requestControl.noStore || control.noStore { return nil }
    if isShared && control.isPrivate { return nil }
    if isShared && request.headers.contains(name: "Authorization")
      && !(control.isPublic || control.sharedMaxAge != nil || control.mustRevalidate)
    {
      return nil
    }
    let vary = response.headers.values(for: "Vary").flatMap { $0.split(separator: ",") }
    if vary.contains(where: { $0.trimmingCharacters(in: .whitespaces) == "*" }) { return nil }

    let explicit = HTTPFreshness.lifetime(
      of: response.headers, shared: isShared, responseTime: responseTime)
    if (response.status == 302 || response.status == 307) && explicit == nil { return nil }
    let lifetime = control.noCache ? 0 : (explicit ?? 0)
    let initialAge = HTTPFreshness.initialAge(
      of: response.headers, requestTime: requestTime, responseTime: responseTime)
    let freshUntil = responseTime.addingTimeInterval(max(0, lifetime - initialAge))
    var record = HTTPCacheRecord(
      response: response, requestTime: requestTime, responseTime: responseTime,
      initialAge: initialAge, freshUntil: freshUntil, keepUntil: freshUntil)
    if record.hasValidators {
      record.keepUntil = freshUntil.addingTimeInterval(Self.seconds(staleRetention))
    } else if freshUntil <= responseTime {
      return nil
    }
    return record
  }

  /// The record for a stored response revalidated by a 304: the stored fields
  /// updated with the 304's (except those that describe the stored body), timed
  /// from the 304; `nil` when the updated response must no longer be stored.
  public func revalidated(
    _ record: HTTPCacheRecord, with notModified: HTTPResponse, to request: HTTPRequestKey,
    requestTime: Date, responseTime: Date
  ) -> HTTPCacheRecord? {
    self.record(
      for: Self.merging(notModified, into: record.response), to: request,
      requestTime: requestTime, responseTime: responseTime)
  }

  /// `stored` with every field of `update` in place of the stored fields of that
  /// name, except the fields that describe the stored body's framing.
  static func merging(_ update: HTTPResponse, into stored: HTTPResponse) -> HTTPResponse {
    let kept: Set<String> = [
      "content-length", "transfer-encoding", "content-range", "connection", "keep-alive",
    ]
    var merged = stored
    let names = Set(update.headers.map { $0.name.lowercased() }).subtracting(kept)
    for name in names { merged.headers.remove(name: name) }
    for field in update.headers where names.contains(field.name.lowercased()) {
      merged.headers.add(name: field.name, value: field.value)
    }
    return merged
  }

  /// `duration` in seconds, saturated so that adding it to a date stays finite.
  static func seconds(_ duration: Duration) -> TimeInterval {
    let (seconds, attoseconds) = duration.components
    return max(0, min(Double(seconds) + Double(attoseconds) / 1e18, 1e12))
  }
}
