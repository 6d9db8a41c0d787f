#if HTTPCaching
import Foundation

/// The rules an ``HTTPCache`` follows (RFC 9111): whether it is shared, whether
/// it gives responses heuristic freshness, which targeted cache-control field
/// it obeys, and how long it keeps a stale response it can revalidate.
///
/// ```swift
/// let cache = HTTPCache(storage: memory, origin: http, policy: .private)
/// let cdn = HTTPCachePolicy(targetedFields: ["CDN-Cache-Control"])
/// ```
public struct HTTPCachePolicy: Hashable, Sendable {
  /// Whether the cache is shared between users (a proxy or a server's cache):
  /// it then honours `s-maxage` and `proxy-revalidate`, never stores `private`
  /// responses, and stores a response to a request with `Authorization` only
  /// when the response allows it.
  public var isShared: Bool
  /// How long a response with validators (`ETag`, `Last-Modified`) is kept after
  /// it becomes stale, to be revalidated with a conditional request instead of
  /// fetched again (and served under `stale-while-revalidate` or `stale-if-error`).
  public var staleRetention: Duration
  /// Whether a response without explicit freshness but with `Last-Modified` and
  /// a heuristically cacheable status is fresh for a tenth of the time since it
  /// was last modified (RFC 9111, section 4.2.2), at most
  /// ``maximumHeuristicLifetime``.
  public var heuristicFreshness: Bool
  /// The longest heuristic freshness lifetime.
  public var maximumHeuristicLifetime: Duration
  /// Targeted cache-control fields this cache obeys, most specific first
  /// (RFC 9213), such as `["CDN-Cache-Control"]` for a CDN or reverse proxy:
  /// when a response has the first of them, its directives replace
  /// `Cache-Control` and `Expires`. Empty (the default) for other caches.
  public var targetedFields: [String]
  /// The most variants (responses that `Vary`) kept for one method and URI.
  public var maximumVariants: Int
  /// Whether a response with a `Set-Cookie` field may be stored. By default a
  /// shared cache does not store one, as nginx and Varnish do not: it would
  /// serve one user's cookie (often their session) to every other user that
  /// asks for the same URI, even when the response says `public`. A private
  /// cache does, since it serves the cookie back to the user who received it.
  public var storesResponsesWithSetCookie: Bool

  /// A shared cache with heuristic freshness, keeping revalidatable responses
  /// one day past freshness.
  public static let shared = HTTPCachePolicy(isShared: true)
  /// A private (single-user) cache with heuristic freshness, keeping
  /// revalidatable responses one day past freshness.
  public static let `private` = HTTPCachePolicy(isShared: false)
  /// A shared cache that obeys `CDN-Cache-Control`: a CDN or a caching reverse proxy.
  public static let cdn = HTTPCachePolicy(isShared: true, targetedFields: ["CDN-Cache-Control"])

  /// Creates a policy; ``storesResponsesWithSetCookie`` is `false` for a shared
  /// cache and `true` for a private one unless `storesResponsesWithSetCookie` says.
  public init(
    isShared: Bool = true, staleRetention: Duration = .seconds(86_400),
    heuristicFreshness: Bool = true, maximumHeuristicLifetime: Duration = .seconds(86_400),
    targetedFields: [String] = [], maximumVariants: Int = 16,
    storesResponsesWithSetCookie: Bool? = nil
  ) {
    self.isShared = isShared
    self.staleRetention = staleRetention
    self.heuristicFreshness = heuristicFreshness
    self.maximumHeuristicLifetime = maximumHeuristicLifetime
    self.targetedFields = targetedFields
    self.maximumVariants = max(1, maximumVariants)
    self.storesResponsesWithSetCookie = storesResponsesWithSetCookie ?? !isShared
  }

  /// The statuses that may be stored without explicit freshness and given
  /// heuristic freshness (RFC 9110, section 15.1), except 206, which this cache
  /// does not store.
  public static let heuristicallyCacheableStatuses: Set<Int> = [
    200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501,
  ]

  /// The statuses this cache understands (those RFC 9110 defines), for `must-understand`.
  static let understoodStatuses: Set<Int> = [
    200, 201, 202, 203, 204, 205, 300, 301, 302, 303, 304, 305, 307, 308, 400, 401, 402,
    403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 421, 422,
    426, 500, 501, 502, 503, 504, 505,
  ]

  /// The methods whose responses a cache stores.
  static let cacheableMethods: Set<String> = ["GET", "HEAD"]

  /// The methods that change nothing on the server (RFC 9110, section 9.2.1);
  /// any other method, known or not, is unsafe and invalidates stored responses.
  static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE"]

  /// The cache directives of `headers` that this cache obeys: the first targeted
  /// field present and valid (a structured-field dictionary, see
  /// ``TargetedCacheControl``), or else `Cache-Control`; `targeted` tells which.
  public func responseControl(_ headers: HTTPHeaderFields) -> (
    control: CacheControl, targeted: Bool
  ) {
    if let control = targetedControl(headers) { return (control, true) }
    return (CacheControl(parsing: headers.values(for: "Cache-Control")), false)
  }

  /// ``responseControl(_:)`` of `record`'s response, without reading its
  /// `Cache-Control` again.
  func responseControl(of record: HTTPCacheRecord) -> (control: CacheControl, targeted: Bool) {
    if let control = targetedControl(record.response.headers) { return (control, true) }
    return (record.cacheControl, false)
  }

  /// The directives of the first targeted field of `headers` present and valid.
  private func targetedControl(_ headers: HTTPHeaderFields) -> CacheControl? {
    for name in targetedFields {
      let values = headers.values(for: name)
      if !values.isEmpty, let control = TargetedCacheControl.parse(values) { return control }
    }
    return nil
  }

  /// The request's cache directives: `Cache-Control`, or, when the request has
  /// none, `Pragma: no-cache` read as `no-cache` (RFC 9111, section 5.4).
  public static func requestControl(_ headers: HTTPHeaderFields) -> CacheControl {
    let values = headers.values(for: "Cache-Control")
    if !values.isEmpty { return CacheControl(parsing: values) }
    let pragma = headers.values(for: "Pragma").flatMap { $0.split(separator: ",") }
    if pragma.contains(where: { $0.trimmingWhitespace().lowercased() == "no-cache" }) {
      return CacheControl(directives: [.init(name: "no-cache")])
    }
    return CacheControl()
  }

  /// The freshness lifetime of `response` in seconds: explicit (`s-maxage` for a
  /// shared cache, `max-age`, `Expires` minus `Date`), or heuristic when the
  /// policy allows it; `nil` when there is neither.
  public func freshnessLifetime(of response: HTTPResponse, responseTime: Date) -> TimeInterval? {
    let (control, targeted) = responseControl(response.headers)
    if isShared, let seconds = control.sharedMaxAge { return TimeInterval(seconds) }
    if let seconds = control.maxAge { return TimeInterval(seconds) }
    if !targeted,
      let lifetime = HTTPFreshness.expiresLifetime(
        of: response.headers, responseTime: responseTime)
    {
      return lifetime
    }
    guard heuristicFreshness,
      Self.heuristicallyCacheableStatuses.contains(response.status) || control.isPublic,
      let modified = response.headers["Last-Modified"].flatMap(HTTPDate.parse)
    else { return nil }
    let date = response.headers["Date"].flatMap(HTTPDate.parse) ?? responseTime
    let heuristic = max(0, date.timeIntervalSince(modified)) / 10
    return min(heuristic, Self.seconds(maximumHeuristicLifetime))
  }

  /// The record to store for `response`, the answer to `request`, or `nil` when it
  /// must not be stored (RFC 9111, section 3).
  ///
  /// Not stored: methods other than GET and HEAD, a request with a body,
  /// `no-store` in the request or the response (unless `must-understand` with a
  /// status this cache understands), `must-understand` with a status it does
  /// not, `private` in a shared cache, a request with `Authorization` in a
  /// shared cache unless the response has `public`, `s-maxage` or
  /// `must-revalidate`, `Set-Cookie` unless ``storesResponsesWithSetCookie``
  /// (by default, in a shared cache), `Vary: *`, 206 and 304, a response with neither explicit
  /// freshness, `public`, nor a heuristically cacheable status, and a response
  /// that is stale at once and has no validator. `no-cache` stores the response
  /// stale, to be revalidated on each use.
  public func record(
    for response: HTTPResponse, to request: HTTPRequestKey, requestTime: Date,
    responseTime: Date
  ) -> HTTPCacheRecord? {
    guard Self.cacheableMethods.contains(request.method), request.body.isEmpty,
      (200..<600).contains(response.status), response.status != 206, response.status != 304
    else { return nil }
    let requestControl = Self.requestControl(request.headers)
    let (control, _) = responseControl(response.headers)
    if control.contains("must-understand") {
      guard Self.understoodStatuses.contains(response.status) else { return nil }
    } else if control.noStore {
      return nil
    }
    if requestControl.noStore { return nil }
    if isShared && control.isPrivate { return nil }
    if !storesResponsesWithSetCookie && response.headers.contains(name: "Set-Cookie") {
      return nil
    }
    if isShared && request.headers.contains(name: "Authorization")
      && !(control.isPublic || control.sharedMaxAge != nil || control.mustRevalidate)
    {
      return nil
    }
    let vary = HTTPVary(response.headers)
    if vary.matchesNothing { return nil }

    let lifetime = freshnessLifetime(of: response, responseTime: responseTime)
    guard
      lifetime != nil || control.isPublic
        || Self.heuristicallyCacheableStatuses.contains(response.status)
    else { return nil }
    let effective = control.noCache ? 0 : (lifetime ?? 0)
    let initialAge = HTTPFreshness.initialAge(
      of: response.headers, requestTime: requestTime, responseTime: responseTime)
    let freshUntil = responseTime.addingTimeInterval(max(0, effective - initialAge))
    var stored = response
    stored.headers = response.headers.removingHopByHop()
    var record = HTTPCacheRecord(
      response: stored, requestTime: requestTime, responseTime: responseTime,
      initialAge: initialAge, freshUntil: freshUntil, keepUntil: freshUntil,
      selectingFields: vary.selectingFields(of: request.headers))
    let staleUse = TimeInterval(
      max(control.seconds("stale-while-revalidate") ?? 0, control.seconds("stale-if-error") ?? 0))
    if record.hasValidators {
      record.keepUntil = freshUntil.addingTimeInterval(
        max(Self.seconds(staleRetention), staleUse))
    } else if staleUse > 0 {
      record.keepUntil = freshUntil.addingTimeInterval(staleUse)
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
  /// name, except the fields that describe the stored body's framing and the
  /// hop-by-hop ones.
  static func merging(_ update: HTTPResponse, into stored: HTTPResponse) -> HTTPResponse {
    let kept: Set<String> = ["content-length", "content-range"]
    let fields = update.headers.removingHopByHop()
    var merged = stored
    let names = Set(fields.map { $0.name.lowercased() }).subtracting(kept)
    for name in names { merged.headers.remove(name: name) }
    for field in fields where names.contains(field.name.lowercased()) {
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
#endif
