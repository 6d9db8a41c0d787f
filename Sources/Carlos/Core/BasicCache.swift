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

  @inlinable
  public func get(_ key: Key) -> Future<Value> {
    getClosure(key)
  }

  @inlinable
  @discardableResult
  public func set(_ value: Value, forKey key: Key) -> Future<Void> {
    setClosure(value, key)
  }

  @inlinable
  public func clear() {
    clearClosure()
  }

  @inlinable
  public func onMemoryWarning() {
    memoryClosure()
  }
}
