/// A cache level made of closures; every combinator returns one.
///
/// ```swift
/// let store = Guarded<[String: Int]>([:])  // any storage of yours
/// let level = BasicCache<String, Int>(
///   getClosure: { key in Future(value: store.read { $0[key] }, error: FetchError.valueNotInCache) },
///   setClosure: { value, key in store.write { $0[key] = value }; return Future() },
///   clearClosure: { store.write { $0 = [:] } },
///   memoryClosure: {},
///   removeClosure: { key in store.write { $0[key] = nil }; return Future() }
/// )
/// ```
public struct BasicCache<Key: Sendable, Value: Sendable>: CacheLevel {
  public typealias KeyType = Key
  public typealias OutputType = Value

  @usableFromInline let getClosure: @Sendable (Key) -> Future<Value>
  @usableFromInline let setClosure: @Sendable (Value, Key) -> Future<Void>
  @usableFromInline let expiringSetClosure: @Sendable (Value, Key, Expiry) -> Future<Void>
  @usableFromInline let removeClosure: @Sendable (Key) -> Future<Void>
  @usableFromInline let removeExpiredClosure: @Sendable () -> Future<Void>
  @usableFromInline let clearClosure: @Sendable () -> Void
  @usableFromInline let memoryClosure: @Sendable () -> Void
  @usableFromInline let sourceClosure: @Sendable (Key) -> Future<CacheAnswer<Value>>
  /// The level's name (see ``CacheLevel/levelName``): `BasicCache` unless given.
  public let levelName: String
  /// What the copies of this level share, so they share loads (see `get(_:orLoad:)`).
  @usableFromInline let identityObject: LevelIdentity

  /// Creates a level from closures for each operation.
  ///
  /// - Parameters:
  ///   - getClosure: answers `get(_:)`.
  ///   - setClosure: answers `set(_:forKey:)`; receives the value, then the key.
  ///   - clearClosure: answers `clear()`.
  ///   - memoryClosure: answers `onMemoryWarning()`.
  ///   - removeClosure: answers `remove(_:)`. Without it, `remove` fails with
  ///     ``FetchError/removeNotSupported``.
  ///   - expiringSetClosure: answers `set(_:forKey:expiry:)`. Without it, the level
  ///     behaves as one that cannot expire values (see ``CacheLevel/set(_:forKey:expiry:)``).
  ///   - removeExpiredClosure: answers `removeExpired()`; by default it succeeds at once.
  ///   - sourceClosure: answers `getWithSource(_:)`; by default `getClosure`'s
  ///     values, with `name` as their source.
  ///   - name: the level's name in answers, statistics and logs.
  @inlinable
  public init(
    getClosure: @escaping @Sendable (Key) -> Future<Value>,
    setClosure: @escaping @Sendable (Value, Key) -> Future<Void>,
    clearClosure: @escaping @Sendable () -> Void,
    memoryClosure: @escaping @Sendable () -> Void,
    removeClosure: @escaping @Sendable (Key) -> Future<Void> = { _ in
      Future(FetchError.removeNotSupported)
    },
    expiringSetClosure: (@Sendable (Value, Key, Expiry) -> Future<Void>)? = nil,
    removeExpiredClosure: @escaping @Sendable () -> Future<Void> = { Future() },
    sourceClosure: (@Sendable (Key) -> Future<CacheAnswer<Value>>)? = nil,
    name: String = "BasicCache"
  ) {
    self.levelName = name
    self.identityObject = LevelIdentity()
    self.getClosure = getClosure
    self.setClosure = setClosure
    self.clearClosure = clearClosure
    self.memoryClosure = memoryClosure
    self.removeClosure = removeClosure
    self.removeExpiredClosure = removeExpiredClosure
    self.sourceClosure =
      sourceClosure ?? { key in
        getClosure(key).map {
          CacheAnswer(value: $0, source: name, wasWrittenBack: false, isNamed: false)
        }
      }
    self.expiringSetClosure =
      expiringSetClosure ?? { value, key, expiry in
        if case .never = expiry { return setClosure(value, key) }
        return removeClosure(key).flatMap { _ in Future<Void>(FetchError.expiryNotSupported) }
      }
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

  /// Stores `value` for `key` until `expiry` (see ``CacheLevel/set(_:forKey:expiry:)``).
  @inlinable
  @discardableResult
  public func set(_ value: Value, forKey key: Key, expiry: Expiry) -> Future<Void> {
    expiringSetClosure(value, key, expiry)
  }

  /// Gets the value for `key` with its source (see ``CacheLevel/getWithSource(_:)``).
  @inlinable
  public func getWithSource(_ key: Key) -> Future<CacheAnswer<Value>> {
    sourceClosure(key)
  }

  /// Removes the value for `key` (see ``CacheLevel/remove(_:)``).
  @inlinable
  @discardableResult
  public func remove(_ key: Key) -> Future<Void> {
    removeClosure(key)
  }

  /// Removes the expired values (see ``CacheLevel/removeExpired()``).
  @inlinable
  @discardableResult
  public func removeExpired() -> Future<Void> {
    removeExpiredClosure()
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

extension BasicCache {
  /// A level that does what `level` does, except for the operations given here.
  /// Combinators use it to change one or two operations and forward the rest.
  @inlinable
  init<Inner: CacheLevel>(
    forwardingTo level: Inner,
    get: (@Sendable (Key) -> Future<Value>)? = nil,
    set: (@Sendable (Value, Key) -> Future<Void>)? = nil,
    expiringSet: (@Sendable (Value, Key, Expiry) -> Future<Void>)? = nil,
    remove: (@Sendable (Key) -> Future<Void>)? = nil,
    getWithSource: (@Sendable (Key) -> Future<CacheAnswer<Value>>)? = nil
  ) where Inner.KeyType == Key, Inner.OutputType == Value {
    self.init(
      getClosure: get ?? { level.get($0) },
      setClosure: set ?? { level.set($0, forKey: $1) },
      clearClosure: { level.clear() },
      memoryClosure: { level.onMemoryWarning() },
      removeClosure: remove ?? { level.remove($0) },
      expiringSetClosure: expiringSet ?? { level.set($0, forKey: $1, expiry: $2) },
      removeExpiredClosure: { level.removeExpired() },
      sourceClosure: getWithSource ?? { level.getWithSource($0) },
      name: level.levelName
    )
  }
}

extension BasicCache {
  /// The identity every copy of this cache shares, for ``CacheLevel/get(_:orLoad:)``.
  public var _loadIdentity: ObjectIdentifier? { ObjectIdentifier(identityObject) }
}

/// An object whose only use is its identity.
@usableFromInline
final class LevelIdentity: Sendable {
  @usableFromInline
  init() {}
}
