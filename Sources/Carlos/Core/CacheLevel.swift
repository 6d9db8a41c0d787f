import Foundation

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

  /// Stores `value` under `key`, valid until `expiry`, overriding the level's own
  /// expiration policy for this value.
  ///
  /// Levels that can expire values (the built-in ones) honour it; in a composed
  /// cache it reaches every level. A level that cannot expire values keeps the
  /// default implementation: it stores `value` when `expiry` is ``Expiry/never``,
  /// and otherwise removes any older value for `key` and fails with
  /// ``FetchError/expiryNotSupported``, so it never keeps a value longer than asked.
  /// An expiry already past stores nothing and removes any older value.
  ///
  /// ```swift
  /// cache.set(token, forKey: "session", expiry: .after(.seconds(300)))
  /// ```
  @discardableResult
  func set(_ value: OutputType, forKey key: KeyType, expiry: Expiry) -> Future<Void>

  /// Removes the value stored under `key`, if any; the future tells when it is gone.
  ///
  /// A get of `key` issued after `remove` is a miss (until a new set), even while the
  /// removal is still running.
  @discardableResult
  func remove(_ key: KeyType) -> Future<Void>

  /// Removes every expired value now, instead of when it is next read or evicted.
  ///
  /// Levels without expiry have nothing to remove and succeed at once.
  @discardableResult
  func removeExpired() -> Future<Void>

  /// Answers like ``get(_:)``, with the name of the level that produced the value
  /// and whether it was written into the levels above.
  ///
  /// A composition answers with the sub-level that had the value; the default
  /// names the level by its type. A plain `get` costs the same whether or not
  /// this is used.
  func getWithSource(_ key: KeyType) -> Future<CacheAnswer<OutputType>>

  /// Removes every value the level stores.
  func clear()

  /// The name of the level in ``getWithSource(_:)`` answers, statistics and log
  /// messages: the name given with ``CacheLevel/named(_:)`` or, by default, the
  /// level's type name without generic arguments.
  var levelName: String { get }

  /// Tells the level that memory is short, so it can drop what it holds in memory.
  func onMemoryWarning()

  /// The expiry this level gives a copy of `value`, stored under `key` now, of a value
  /// that expires at `deadline` in the level it comes from: how a composition copies
  /// a value up. By default `deadline`; the built-in levels answer the earlier of
  /// `deadline` and the moment their own expiration policy gives (an after-access
  /// policy does not slide such a copy).
  func expiry(forCopyOf value: OutputType, forKey key: KeyType, expiringAt deadline: Date)
    -> Expiry

  /// What makes copies of this level one level for ``get(_:orLoad:)``, whose
  /// concurrent callers of one key share a pass: the object of a class, the shared
  /// identity of a combinator's result; `nil` for a value type of your own (its
  /// callers do not share). An implementation detail: keep the default.
  var _loadIdentity: ObjectIdentifier? { get }
}

extension CacheLevel {
  /// The level's type name without generic arguments.
  public var levelName: String { Self.unnamedSource }

  /// `deadline`: a level without an expiration policy of its own keeps a copy as
  /// long as its source does.
  @inlinable
  public func expiry(forCopyOf value: OutputType, forKey key: KeyType, expiringAt deadline: Date)
    -> Expiry
  {
    .at(deadline)
  }

  /// `nil`: callers of a value type's ``get(_:orLoad:)`` do not share passes.
  public var _loadIdentity: ObjectIdentifier? { nil }

  /// Fails with ``FetchError/removeNotSupported`` and removes nothing: a level
  /// written before `remove(_:)` existed (Carlos 0.x) keeps compiling and says
  /// honestly that it cannot remove one value. Implement `remove(_:)` to support it.
  @discardableResult
  public func remove(_ key: KeyType) -> Future<Void> {
    Future(FetchError.removeNotSupported)
  }

  /// Stores `value` when `expiry` is ``Expiry/never``; otherwise removes any older
  /// value for `key` and fails with ``FetchError/expiryNotSupported``: a level that
  /// cannot expire values must not keep one longer than asked.
  @discardableResult
  public func set(_ value: OutputType, forKey key: KeyType, expiry: Expiry) -> Future<Void> {
    if case .never = expiry { return set(value, forKey: key) }
    return remove(key).flatMap { _ in Future<Void>(FetchError.expiryNotSupported) }
  }

  /// Succeeds at once: a level without expiry holds nothing expired.
  @discardableResult
  public func removeExpired() -> Future<Void> {
    Future()
  }
}

/// A level that knows when each of its values was stored and when it expires.
///
/// The built-in storing levels conform; ``TimedCacheLevel/refreshing(from:after:clock:)``
/// needs one as its upper level.
public protocol TimedCacheLevel<KeyType, OutputType>: CacheLevel {
  /// The value stored under `key`, with when it was stored and when it expires.
  /// Fails like ``CacheLevel/get(_:)`` when there is none (an expired value is none).
  func entry(forKey key: KeyType) -> Future<CacheEntry<OutputType>>
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

  /// Does nothing and succeeds: a fetcher does not store values.
  @discardableResult
  public func set(_ value: OutputType, forKey key: KeyType, expiry: Expiry) -> Future<Void> {
    Future()
  }

  /// Does nothing and succeeds: a fetcher stores nothing to remove.
  @discardableResult
  public func remove(_ key: KeyType) -> Future<Void> {
    Future()
  }

  /// Does nothing: a fetcher stores nothing.
  public func clear() {}

  /// Does nothing: a fetcher holds nothing in memory.
  public func onMemoryWarning() {}
}

extension CacheLevel where Self: AnyObject {
  /// The object: every reference to it is one level for ``get(_:orLoad:)``.
  public var _loadIdentity: ObjectIdentifier? { ObjectIdentifier(self) }
}
