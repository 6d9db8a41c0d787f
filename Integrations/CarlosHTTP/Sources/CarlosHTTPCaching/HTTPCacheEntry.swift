#if HTTPCaching
import Foundation

/// What an HTTP cache stores under one ``HTTPCacheKey``: the variants of the
/// response to that method and URI, most recently stored first. A response
/// without `Vary` is the only variant; responses that `Vary` are told apart by
/// the request fields they nominate (RFC 9111, section 4.1). `Codable`, so any
/// Carlos storage (memory, disk, a database) holds it and every cache instance
/// on that storage sees the same variants.
///
/// ```swift
/// let entry = try await storage.get(HTTPCacheKey(url: url))
/// entry.variant(matching: ["Accept-Language": "en"])?.response
/// ```
public struct HTTPCacheEntry: Hashable, Sendable, Codable {
  /// The stored variants, most recently stored first.
  public var variants: [HTTPCacheRecord]

  /// Creates an entry of `variants`, most recently stored first.
  public init(variants: [HTTPCacheRecord] = []) {
    self.variants = variants
  }

  /// The most recently stored variant that may answer a request with
  /// `requestFields`, or `nil`.
  public func variant(matching requestFields: HTTPHeaderFields) -> HTTPCacheRecord? {
    variants.first { $0.matches(requestFields) }
  }

  /// Until when the storage should keep the entry: the latest
  /// ``HTTPCacheRecord/keepUntil`` of its variants (`nil` when it has none).
  public var keepUntil: Date? {
    variants.map(\.keepUntil).max()
  }

  /// Adds `record` as the newest variant, in place of the variants a request
  /// with the record's selecting fields would have chosen, keeping at most
  /// `limit` variants (the oldest go first).
  mutating func store(_ record: HTTPCacheRecord, requestFields: HTTPHeaderFields, limit: Int) {
    variants.removeAll {
      $0.matches(requestFields)
        || $0.selectingFields == record.selectingFields && $0.vary == record.vary
    }
    variants.insert(record, at: 0)
    if variants.count > max(limit, 1) { variants.removeLast(variants.count - max(limit, 1)) }
  }

  /// Removes the variants that a request with `requestFields` would have chosen.
  mutating func removeVariants(matching requestFields: HTTPHeaderFields) {
    variants.removeAll { $0.matches(requestFields) }
  }

  /// Removes the variants stored past their ``HTTPCacheRecord/keepUntil``.
  mutating func removeVariants(keptUntilBefore now: Date) {
    variants.removeAll { $0.keepUntil <= now }
  }
}
#endif
