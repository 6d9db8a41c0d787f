/// A value a loader produced, with how long the cache may keep it.
///
/// ```swift
/// let token = try await cache.get("session", orLoad: { key in
///   Loaded(try await auth.newToken(for: key), expiry: .after(.seconds(300)))
/// })
/// ```
public struct Loaded<Value: Sendable>: Sendable {
  /// The value.
  public var value: Value
  /// How long the cache may keep it.
  public var expiry: Expiry

  /// Creates a loaded value kept until `expiry` (by default, as the level's policy says).
  public init(_ value: Value, expiry: Expiry = .never) {
    self.value = value
    self.expiry = expiry
  }
}
