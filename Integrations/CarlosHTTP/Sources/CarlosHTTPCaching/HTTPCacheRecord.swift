#if HTTPCaching
import Foundation

/// What an HTTP cache stores for one response: the response, when it was
/// requested and received, until when it is fresh, its validators, and the
/// request header fields its `Vary` nominates (the fields that select it among
/// the variants of its ``HTTPCacheKey``, see ``HTTPCacheEntry``). `Codable`, so
/// a disk level can hold it.
///
/// The record, not the level that stores it, says whether the response is
/// fresh: a record copied into an upper level under that level's own expiry is
/// still judged by ``freshUntil``.
public struct HTTPCacheRecord: Hashable, Sendable, Codable {
  /// The stored response.
  public var response: HTTPResponse {
    didSet { fields = ReadFields(response) }
  }
  /// When the request that produced (or last revalidated) the response was sent.
  public var requestTime: Date
  /// When the response (or the 304 that last revalidated it) arrived.
  public var responseTime: Date
  /// How old the response already was when it arrived, in seconds (RFC 9111, section 4.2.3).
  public var initialAge: TimeInterval
  /// Until when the response may be served without asking the server.
  public var freshUntil: Date
  /// Until when the storage keeps the record: ``freshUntil``, or later when the
  /// response has validators, so that a stale record can still be revalidated.
  public var keepUntil: Date
  /// The request header fields the response's `Vary` nominates, as the request
  /// that produced the response had them (names lowercased, values normalised
  /// by ``HTTPVary``; a field the request lacked is absent). Empty when the
  /// response has no `Vary`.
  public var selectingFields: HTTPHeaderFields

  /// Creates a record.
  public init(
    response: HTTPResponse, requestTime: Date, responseTime: Date, initialAge: TimeInterval,
    freshUntil: Date, keepUntil: Date, selectingFields: HTTPHeaderFields = [:]
  ) {
    self.response = response
    self.fields = ReadFields(response)
    self.requestTime = requestTime
    self.responseTime = responseTime
    self.initialAge = initialAge
    self.freshUntil = freshUntil
    self.keepUntil = keepUntil
    self.selectingFields = selectingFields
  }

  /// Reads a record; one stored before records had ``selectingFields`` has none.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    response = try container.decode(HTTPResponse.self, forKey: .response)
    fields = ReadFields(response)
    requestTime = try container.decode(Date.self, forKey: .requestTime)
    responseTime = try container.decode(Date.self, forKey: .responseTime)
    initialAge = try container.decode(TimeInterval.self, forKey: .initialAge)
    freshUntil = try container.decode(Date.self, forKey: .freshUntil)
    keepUntil = try container.decode(Date.self, forKey: .keepUntil)
    selectingFields =
      try container.decodeIfPresent(HTTPHeaderFields.self, forKey: .selectingFields) ?? [:]
  }

  /// The response's fields every use of the record reads, read once.
  private struct ReadFields: Hashable, Sendable {
    let cacheControl: CacheControl
    let vary: HTTPVary

    init(_ response: HTTPResponse) {
      cacheControl = CacheControl(parsing: response.headers.values(for: "Cache-Control"))
      vary = HTTPVary(response.headers)
    }
  }

  /// The response's fields, as they were read when it was set.
  private var fields: ReadFields

  /// The response's `Cache-Control` directives.
  var cacheControl: CacheControl { fields.cacheControl }

  private enum CodingKeys: String, CodingKey {
    case response, requestTime, responseTime, initialAge, freshUntil, keepUntil, selectingFields
  }

  /// The response's `Vary`.
  public var vary: HTTPVary { fields.vary }

  /// Whether the stored response may answer a request with `requestFields`
  /// (RFC 9111, section 4.1): its `Vary` is not `*` and every field it
  /// nominates has, after normalisation, the value the stored request had (or
  /// is absent from both).
  public func matches(_ requestFields: HTTPHeaderFields) -> Bool {
    let vary = self.vary
    return !vary.matchesNothing && vary.selectingFields(of: requestFields) == selectingFields
  }

  /// The response's `ETag`, when it is a valid entity tag.
  public var entityTag: EntityTag? {
    response.headers["ETag"].flatMap(EntityTag.init(parsing:))
  }

  /// The response's `Last-Modified` field, when it is a valid HTTP date.
  public var lastModified: String? {
    guard let value = response.headers["Last-Modified"], HTTPDate.parse(value) != nil else {
      return nil
    }
    return value
  }

  /// Whether the record can be revalidated: it has an entity tag or a last-modified date.
  public var hasValidators: Bool { entityTag != nil || lastModified != nil }

  /// Whether the response may be served at `now` without asking the server.
  public func isFresh(at now: Date) -> Bool { now < freshUntil }

  /// The response's age at `now`, in whole seconds (RFC 9111, section 4.2.3).
  public func age(at now: Date) -> Int {
    let seconds = initialAge + max(0, now.timeIntervalSince(responseTime))
    guard seconds.isFinite, seconds < Double(CacheControl.maximumDeltaSeconds) else {
      return CacheControl.maximumDeltaSeconds
    }
    return Int(max(0, seconds))
  }

  /// The response's age at `now`, in seconds with their fraction.
  func exactAge(at now: Date) -> TimeInterval {
    initialAge + max(0, now.timeIntervalSince(responseTime))
  }

  /// The response as served at `now`: with an `Age` field.
  public func response(at now: Date) -> HTTPResponse {
    var served = response
    served.headers.replaceOrAdd(name: "Age", value: String(age(at: now)))
    return served
  }
}
#endif
