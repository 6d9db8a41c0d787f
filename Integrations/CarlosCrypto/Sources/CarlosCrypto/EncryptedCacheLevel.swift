#if Crypto
import Carlos
import Foundation

/// A level that stores `Data` values encrypted in another level: what
/// `level =>> encryption` makes (see ``CacheEncryption``).
///
/// A get opens the stored envelope, or fails with `FetchError.valueNotInCache` when
/// it does not open (a miss: in a composition the next level answers and the value
/// is stored again). Sets, expiries, removals and the rest reach the inner level.
public struct EncryptedCacheLevel<Inner: CacheLevel>: CacheLevel
where Inner.OutputType == Data, Inner.KeyType: StringConvertible {
  /// The level holding the envelopes.
  public let inner: Inner
  /// How values are sealed and opened.
  public let encryption: CacheEncryption
  /// The identity every copy of this level shares, for `get(_:orLoad:)`.
  private let identity = Identity()

  /// Stores `Data` in `inner` encrypted by `encryption`.
  public init(_ inner: Inner, encryption: CacheEncryption) {
    self.inner = inner
    self.encryption = encryption
  }

  /// The inner level's name.
  public var levelName: String { inner.levelName }

  /// The identity every copy of this level shares: copies are one level for
  /// `get(_:orLoad:)`, whose concurrent callers of a key share a load. Another level
  /// made over the same inner level (another key ring or namespace) is another level.
  public var _loadIdentity: ObjectIdentifier? { ObjectIdentifier(identity) }

  /// The value stored under `key`, opened; a miss when there is none or it does not open.
  @inlinable
  public func get(_ key: Inner.KeyType) -> Future<Data> {
    let stored = inner.get(key)
    // A level that answers at once (memory, disk) needs no callback.
    if case .success(let bytes)? = stored.result { return Future(result: open(bytes, key)) }
    return stored.flatMap { (bytes: Data) -> FutureResult<Data> in self.open(bytes, key) }
  }

  /// The value stored under `key`, opened, with the inner level's answer: its source
  /// and when the value expires there (so a composition above copies it up no longer).
  public func getWithSource(_ key: Inner.KeyType) -> Future<CacheAnswer<Data>> {
    inner.getWithSource(key).flatMap {
      (answer: CacheAnswer<Data>) -> FutureResult<CacheAnswer<Data>> in
      switch self.open(answer.value, key) {
      case .success(let value):
        var opened = answer
        opened.value = value
        return .success(opened)
      case .error(let error): return .error(error)
      case .cancelled: return .cancelled
      }
    }
  }

  /// `bytes`, stored under `key`, opened; a miss, reported, when they do not open.
  @usableFromInline
  func open(_ bytes: Data, _ key: Inner.KeyType) -> FutureResult<Data> {
    do throws(CacheEncryptionError) {
      return .success(try encryption.open(bytes, forKey: key.toString()))
    } catch {
      encryption.onRejection?(error)
      return .error(FetchError.valueNotInCache)
    }
  }

  /// Seals `value` for `key` and stores it.
  @discardableResult
  public func set(_ value: Data, forKey key: Inner.KeyType) -> Future<Void> {
    set(value, forKey: key, expiry: .never)
  }

  /// Seals `value` for `key` and stores it until `expiry`.
  @discardableResult
  @inlinable
  public func set(_ value: Data, forKey key: Inner.KeyType, expiry: Expiry) -> Future<Void> {
    let sealed: Data
    do {
      sealed = try encryption.seal(value, forKey: key.toString())
    } catch {
      return Future(error)
    }
    if case .never = expiry { return inner.set(sealed, forKey: key) }
    return inner.set(sealed, forKey: key, expiry: expiry)
  }

  /// Removes the value stored under `key`.
  @discardableResult
  public func remove(_ key: Inner.KeyType) -> Future<Void> { inner.remove(key) }

  /// Removes the inner level's expired values.
  @discardableResult
  public func removeExpired() -> Future<Void> { inner.removeExpired() }

  /// Removes every value.
  public func clear() { inner.clear() }

  /// Passes the warning to the inner level.
  public func onMemoryWarning() { inner.onMemoryWarning() }
}

/// `level`'s `Data` values encrypted by `encryption`: see ``EncryptedCacheLevel``.
public func =>> <Inner: CacheLevel>(
  level: Inner, encryption: CacheEncryption
) -> EncryptedCacheLevel<Inner> where Inner.OutputType == Data, Inner.KeyType: StringConvertible {
  EncryptedCacheLevel(level, encryption: encryption)
}

/// An object whose only use is its identity.
private final class Identity: Sendable {}
#endif
