import Foundation

/// How a ``UserDefaultsCacheLevel`` keeps one value in its suite: a dictionary
/// with the encoded value, when it was stored and when it expires (nanoseconds
/// since 1970; no "expiresAt": never). Plain data under the key, as written
/// before expiry existed, reads as a value that never expires and whose storage
/// time is unknown.
struct UserDefaultsStoredRecord {
  /// The encoded value.
  var data: Data
  /// When the value was stored; nil when unknown (plain data).
  var storedAt: Int64?
  /// When the value expires; nil when it never does.
  var expiresAt: Int64?

  private static let valueField = "value"
  private static let storedAtField = "storedAt"
  private static let expiresAtField = "expiresAt"

  init(data: Data, storedAt: Int64?, expiresAt: Int64?) {
    self.data = data
    self.storedAt = storedAt
    self.expiresAt = expiresAt
  }

  /// Reads what the suite holds under a key; nil when it is not a record.
  init?(_ stored: Any) {
    if let data = stored as? Data {
      self.init(data: data, storedAt: nil, expiresAt: nil)
      return
    }
    guard let fields = stored as? [String: Any], let data = fields[Self.valueField] as? Data,
      let storedAt = Self.integer(fields[Self.storedAtField])
    else {
      return nil
    }
    let expiresAt = fields[Self.expiresAtField]
    // A present but unreadable expiry is not trusted as "never".
    guard expiresAt == nil || Self.integer(expiresAt) != nil else { return nil }
    self.init(data: data, storedAt: storedAt, expiresAt: Self.integer(expiresAt))
  }

  /// What the suite stores.
  var propertyList: [String: Any] {
    var fields: [String: Any] = [Self.valueField: data]
    if let storedAt { fields[Self.storedAtField] = NSNumber(value: storedAt) }
    if let expiresAt { fields[Self.expiresAtField] = NSNumber(value: expiresAt) }
    return fields
  }

  /// Whether the value has expired at `now` (nanoseconds since 1970).
  func isExpired(at now: Int64) -> Bool {
    guard let expiresAt else { return false }
    return expiresAt <= now
  }

  /// A 64-bit integer read back from a property list, whatever type it comes back as.
  private static func integer(_ value: Any?) -> Int64? {
    switch value {
    case let number as Int64: return number
    case let number as Int: return Int64(number)
    case let number as NSNumber: return number.int64Value
    default: return nil
    }
  }
}
