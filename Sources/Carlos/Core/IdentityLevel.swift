/// The neutral level of composition: it never has a value and ignores sets.
///
/// `IdentityLevel() >>> cache` and `cache >>> IdentityLevel()` behave like `cache`.
public struct IdentityLevel<Key: Sendable, Value: Sendable>: CacheLevel {
  public typealias KeyType = Key
  public typealias OutputType = Value

  /// Creates the identity level.
  public init() {}

  /// Always fails with ``FetchError/valueNotInCache``.
  public func get(_ key: Key) -> Future<Value> {
    Future(FetchError.valueNotInCache)
  }

  /// Ignores the value and succeeds.
  @discardableResult
  public func set(_ value: Value, forKey key: Key) -> Future<Void> {
    Future()
  }

  /// Ignores the value and succeeds.
  @discardableResult
  public func set(_ value: Value, forKey key: Key, expiry: Expiry) -> Future<Void> {
    Future()
  }

  /// Succeeds: there is nothing to remove.
  @discardableResult
  public func remove(_ key: Key) -> Future<Void> {
    Future()
  }

  /// Does nothing.
  public func clear() {}

  /// Does nothing.
  public func onMemoryWarning() {}
}
