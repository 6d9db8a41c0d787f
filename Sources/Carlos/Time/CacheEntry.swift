import Foundation

/// A stored value with when it was stored and when it expires, as
/// `entry(forKey:)` answers on the built-in levels.
///
/// ```swift
/// let entry = try await memory.entry(forKey: "token").value
/// if let expiresAt = entry.expiresAt { print("valid until \(expiresAt)") }
/// ```
public struct CacheEntry<Value: Sendable>: Sendable {
  /// The value.
  public var value: Value
  /// When the value was stored (for after-access expiry: still when it was stored).
  public var storedAt: Date
  /// When the value expires, or `nil` when it never does.
  public var expiresAt: Date?

  /// Creates an entry.
  public init(value: Value, storedAt: Date, expiresAt: Date?) {
    self.value = value
    self.storedAt = storedAt
    self.expiresAt = expiresAt
  }

  /// The same entry with its value transformed.
  public func map<T: Sendable>(_ transform: (Value) throws -> T) rethrows -> CacheEntry<T> {
    CacheEntry<T>(value: try transform(value), storedAt: storedAt, expiresAt: expiresAt)
  }
}
