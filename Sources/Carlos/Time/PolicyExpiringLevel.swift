import Foundation

/// A level with an expiration policy of its own (the built-in levels): a value copied
/// into it from a lower level keeps to that policy as well as to the lower level's
/// expiry.
@usableFromInline
protocol PolicyExpiringLevel<KeyType, OutputType>: CacheLevel {
  /// How long the level's values stay valid when a set gives no expiry.
  var expiration: ExpirationPolicy<KeyType, OutputType> { get }
  /// Where the level reads the time.
  var clock: any CacheClock { get }
}

extension CacheLevel {
  /// The expiry this level gives a copy of `value`, stored under `key` now, of a value
  /// that expires at `deadline` in the level it comes from: the earlier of `deadline`
  /// and the moment this level's own expiration policy gives, for a built-in level (an
  /// after-access policy does not slide such a copy); `deadline` for any other level.
  ///
  /// Compositions copy values up with it; a level of your own that copies values from
  /// another can too:
  ///
  /// ```swift
  /// memory.set(value, forKey: key, expiry: memory.expiry(forCopyOf: value, forKey: key, expiringAt: deadline))
  /// ```
  public func expiry(forCopyOf value: OutputType, forKey key: KeyType, expiringAt deadline: Date)
    -> Expiry
  {
    guard let level = self as? any PolicyExpiringLevel<KeyType, OutputType> else {
      return .at(deadline)
    }
    return level.ownExpiry(forCopyOf: value, key, expiringAt: deadline)
  }
}

extension PolicyExpiringLevel {
  /// The earlier of `deadline` and the deadline the level's policy gives `value` now.
  func ownExpiry(forCopyOf value: OutputType, _ key: KeyType, expiringAt deadline: Date) -> Expiry {
    let now = CacheInstant(nanoseconds: clock.nanoseconds())
    guard let own = expiration.expiry(of: key, value).deadline(storedAt: now),
      own < CacheInstant(deadline)
    else { return .at(deadline) }
    return .at(own.date)
  }
}

extension MemoryCacheLevel: PolicyExpiringLevel {}
extension DiskCacheLevel: PolicyExpiringLevel {}
extension UserDefaultsCacheLevel: PolicyExpiringLevel {}
