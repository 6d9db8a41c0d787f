/// A level of a cache: something that can get a value for a key, and usually
/// store one.
///
/// Levels compose with `>>>`, transform keys and values with `=>>`, and can be
/// conditioned with `<?>`. Every level is safe to use from many threads at once.
public protocol CacheLevel<KeyType, OutputType>: Sendable {
  /// The type of the keys the level accepts.
  associatedtype KeyType: Sendable
  /// The type of the values the level returns.
  associatedtype OutputType: Sendable

  /// Asks the level for the value stored under `key`.
  ///
  /// The future fails (for example with ``FetchError/valueNotInCache``) when the
  /// level has no value; cancelling it stops the work behind it where possible.
  func get(_ key: KeyType) -> Future<OutputType>

  /// Stores `value` under `key`; the future tells when and whether it was stored.
  @discardableResult
  func set(_ value: OutputType, forKey key: KeyType) -> Future<Void>

  /// Removes every value the level stores.
  func clear()

  /// Tells the level that memory is short, so it can drop what it holds in memory.
  func onMemoryWarning()
}

/// A level that only fetches: storing, clearing and memory warnings do nothing
/// unless the conforming type says otherwise.
public protocol Fetcher<KeyType, OutputType>: CacheLevel {}

extension Fetcher {
  /// Does nothing and succeeds: a fetcher does not store values.
  @discardableResult
  public func set(_ value: OutputType, forKey key: KeyType) -> Future<Void> {
    Future()
  }

  /// Does nothing: a fetcher stores nothing.
  public func clear() {}

  /// Does nothing: a fetcher holds nothing in memory.
  public func onMemoryWarning() {}
}
