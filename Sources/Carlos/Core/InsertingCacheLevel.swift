/// A level that can store a value only where it holds none, atomically: of many
/// callers inserting one key at once, exactly one stores its value.
///
/// The built-in storing levels conform. Framework session and persistence stores
/// need this for "create" (fail when the key exists).
///
/// ```swift
/// let created = try await sessions.insertIfAbsent(token, forKey: "session:1")
/// ```
public protocol InsertingCacheLevel<KeyType, OutputType>: CacheLevel {
  /// Stores `value` under `key` unless a value (not expired) is stored there; succeeds
  /// with whether it stored. The value expires as the level's policy says.
  @discardableResult
  func insertIfAbsent(_ value: OutputType, forKey key: KeyType) -> Future<Bool>

  /// Stores `value` under `key`, valid until `expiry`, unless a value (not expired) is
  /// stored there; succeeds with whether it stored.
  @discardableResult
  func insertIfAbsent(_ value: OutputType, forKey key: KeyType, expiry: Expiry) -> Future<Bool>
}

extension InsertingCacheLevel {
  /// The async form of ``insertIfAbsent(_:forKey:)``: whether the value was stored.
  @inlinable
  public func insertIfAbsent(_ value: OutputType, forKey key: KeyType) async throws -> Bool {
    let request: Future<Bool> = insertIfAbsent(value, forKey: key)
    return try await request.value
  }

  /// The async form of ``insertIfAbsent(_:forKey:expiry:)``: whether the value was stored.
  @inlinable
  public func insertIfAbsent(
    _ value: OutputType, forKey key: KeyType, expiry: Expiry
  ) async throws -> Bool {
    let request: Future<Bool> = insertIfAbsent(value, forKey: key, expiry: expiry)
    return try await request.value
  }
}
