/// A cache level written with async/await: implement ``get(_:)-(KeyType)``,
/// ``set(_:forKey:)-(OutputType,KeyType)`` and ``remove(_:)-(KeyType)`` as `async`
/// functions, and the level can be used wherever a ``CacheLevel`` can: composed with
/// `>>>`, transformed with `=>>`, conditioned, pooled, capped, refreshed, with
/// statistics and ``CacheLevel/getWithSource(_:)``.
///
/// ```swift
/// actor ProfileStore: AsyncCacheLevel {
///   private var profiles: [String: Data] = [:]
///   func get(_ key: String) async throws -> Data {
///     guard let profile = profiles[key] else { throw FetchError.valueNotInCache }
///     return profile
///   }
///   func set(_ value: Data, forKey key: String) async throws { profiles[key] = value }
///   func remove(_ key: String) async throws { profiles[key] = nil }
/// }
///
/// let cache = MemoryCacheLevel<String, Data>() >>> ProfileStore()
/// ```
///
/// Expiry, `clear()` and `removeExpired()` are optional. The
/// Future-returning members come from this protocol: each starts the async one at
/// once on the calling thread, so operations issued one after another reach the
/// level in that order up to their first suspension; cancelling the future cancels
/// the operation's task. Implement the three async requirements: without them the
/// level would answer itself through ``CacheLevel``'s async forms.
public protocol AsyncCacheLevel<KeyType, OutputType>: CacheLevel {
  /// The type of the keys the level accepts.
  associatedtype KeyType
  /// The type of the values the level returns.
  associatedtype OutputType

  /// The value stored under `key`; throws ``FetchError/valueNotInCache`` (or an error
  /// of your own) when there is none.
  func get(_ key: KeyType) async throws -> OutputType

  /// Stores `value` under `key`.
  func set(_ value: OutputType, forKey key: KeyType) async throws

  /// Stores `value` under `key` until `expiry`. Optional: by default the value is
  /// stored when `expiry` is ``Expiry/never``; otherwise any older value is removed and
  /// the call throws ``FetchError/expiryNotSupported``.
  func set(_ value: OutputType, forKey key: KeyType, expiry: Expiry) async throws

  /// Removes the value stored under `key`, if any.
  func remove(_ key: KeyType) async throws

  /// Removes every stored value. Optional: by default there is nothing to clear.
  func clear() async throws

  /// Removes every expired value. Optional: by default there is nothing expired.
  func removeExpired() async throws
}

extension AsyncCacheLevel {
  /// Stores `value` when `expiry` is ``Expiry/never``; otherwise removes any older
  /// value and throws ``FetchError/expiryNotSupported``.
  public func set(_ value: OutputType, forKey key: KeyType, expiry: Expiry) async throws {
    if case .never = expiry { return try await set(value, forKey: key) }
    try await remove(key)
    throw FetchError.expiryNotSupported
  }

  /// Does nothing: a level that does not implement it has nothing to clear.
  public func clear() async throws {}

  /// Does nothing: a level that does not implement it holds nothing expired.
  public func removeExpired() async throws {}

  /// Runs the async ``get(_:)-(KeyType)`` (see ``CacheLevel/get(_:)``).
  public func get(_ key: KeyType) -> Future<OutputType> {
    startAsync { try await self.get(key) }
  }

  /// Runs the async ``set(_:forKey:)-(OutputType,KeyType)`` (see ``CacheLevel/set(_:forKey:)``).
  @discardableResult
  public func set(_ value: OutputType, forKey key: KeyType) -> Future<Void> {
    startAsync { try await self.set(value, forKey: key) }
  }

  /// Runs the async ``set(_:forKey:expiry:)-(OutputType,KeyType,Expiry)``
  /// (see ``CacheLevel/set(_:forKey:expiry:)``).
  @discardableResult
  public func set(_ value: OutputType, forKey key: KeyType, expiry: Expiry) -> Future<Void> {
    startAsync { try await self.set(value, forKey: key, expiry: expiry) }
  }

  /// Runs the async ``remove(_:)-(KeyType)`` (see ``CacheLevel/remove(_:)``).
  @discardableResult
  public func remove(_ key: KeyType) -> Future<Void> {
    startAsync { try await self.remove(key) }
  }

  /// Runs the async `removeExpired()` (see ``CacheLevel/removeExpired()``).
  @discardableResult
  public func removeExpired() -> Future<Void> {
    startAsync { try await self.removeExpired() }
  }

  /// Starts the async `clear()`; a failure is logged.
  public func clear() {
    startAsync { try await self.clear() }.onFailure { error in
      CarlosLogger.log(
        "Could not clear the level: \(error)", .warning, metadata: ["level": self.levelName])
    }
  }

  /// Does nothing: an async level holds nothing in this process's memory unless it says so.
  public func onMemoryWarning() {}
}
