/// A cache level made of closures; every combinator returns one.
public struct BasicCache<Key: Sendable, Value: Sendable>: CacheLevel {
  public typealias KeyType = Key
  public typealias OutputType = Value

  @usableFromInline let getClosure: @Sendable (Key) -> Future<Value>
  @usableFromInline let setClosure: @Sendable (Value, Key) -> Future<Void>
  @usableFromInline let clearClosure: @Sendable () -> Void
  @usableFromInline let memoryClosure: @Sendable () -> Void

  /// Creates a level from closures for each operation.
  ///
  /// - Parameters:
  ///   - getClosure: answers `get(_:)`.
  ///   - setClosure: answers `set(_:forKey:)`; receives the value, then the key.
  ///   - clearClosure: answers `clear()`.
  ///   - memoryClosure: answers `onMemoryWarning()`.
  @inlinable
  public init(
    getClosure: @escaping @Sendable (Key) -> Future<Value>,
    setClosure: @escaping @Sendable (Value, Key) -> Future<Void>,
    clearClosure: @escaping @Sendable () -> Void,
    memoryClosure: @escaping @Sendable () -> Void
  ) {
    self.getClosure = getClosure
    self.setClosure = setClosure
    self.clearClosure = clearClosure
    self.memoryClosure = memoryClosure
  }

  /// Gets the value for `key` (see ``CacheLevel/get(_:)``).
  @inlinable
  public func get(_ key: Key) -> Future<Value> {
    getClosure(key)
  }

  /// Stores `value` for `key` (see ``CacheLevel/set(_:forKey:)``).
  @inlinable
  @discardableResult
  public func set(_ value: Value, forKey key: Key) -> Future<Void> {
    setClosure(value, key)
  }

  /// Clears the level (see ``CacheLevel/clear()``).
  @inlinable
  public func clear() {
    clearClosure()
  }

  /// Reacts to a memory warning (see ``CacheLevel/onMemoryWarning()``).
  @inlinable
  public func onMemoryWarning() {
    memoryClosure()
  }
}
