/// A fetcher made of a closure: it gets values and stores nothing.
public struct BasicFetcher<Key: Sendable, Value: Sendable>: Fetcher {
  public typealias KeyType = Key
  public typealias OutputType = Value

  @usableFromInline let getClosure: @Sendable (Key) -> Future<Value>

  /// Creates a fetcher that answers `get(_:)` with `getClosure`.
  @inlinable
  public init(getClosure: @escaping @Sendable (Key) -> Future<Value>) {
    self.getClosure = getClosure
  }

  /// Gets the value for `key` (see ``CacheLevel/get(_:)``).
  @inlinable
  public func get(_ key: Key) -> Future<Value> {
    getClosure(key)
  }
}
