import Foundation

/// How long the values of a level stay valid, when nothing else is said at set time.
///
/// Give it to a built-in level (``MemoryCacheLevel``, ``DiskCacheLevel``,
/// ``UserDefaultsCacheLevel``); an expiry passed to ``CacheLevel/set(_:forKey:expiry:)``
/// overrides it for that one value.
///
/// ```swift
/// let memory = MemoryCacheLevel<URL, Data>(expiration: .afterWrite(.seconds(300)))
/// let sessions = MemoryCacheLevel<String, Data>(expiration: .afterAccess(.seconds(1800)))
/// let responses = DiskCacheLevel<String, Data>(expiration: .perEntry { _, data in
///   data.count > 1_000_000 ? .after(.seconds(60)) : .after(.seconds(3600))
/// })
/// ```
public struct ExpirationPolicy<Key: Sendable, Value: Sendable>: Sendable {
  @usableFromInline
  enum Rule: Sendable {
    case never
    case afterWrite(Duration)
    case afterAccess(Duration)
    case perEntry(@Sendable (Key, Value) -> Expiry)
  }

  @usableFromInline let rule: Rule

  private init(_ rule: Rule) {
    self.rule = rule
  }

  /// Values never expire (the default).
  public static var never: Self { Self(.never) }

  /// A value expires `duration` after it was stored.
  public static func afterWrite(_ duration: Duration) -> Self { Self(.afterWrite(duration)) }

  /// A value expires `duration` after it was last read or stored.
  ///
  /// ``MemoryCacheLevel`` honours it exactly. The persistent levels cannot afford a
  /// write on every read, so they treat it as ``afterWrite(_:)``: a value leaves
  /// sooner than asked, never later.
  public static func afterAccess(_ duration: Duration) -> Self { Self(.afterAccess(duration)) }

  /// Each value's expiry is decided by `expiry` when the value is stored.
  public static func perEntry(_ expiry: @escaping @Sendable (Key, Value) -> Expiry) -> Self {
    Self(.perEntry(expiry))
  }

  /// Whether the policy ever expires anything.
  var isNever: Bool {
    if case .never = rule { return true }
    return false
  }

  /// The expiry of `value`, stored under `key`, under this policy.
  func expiry(of key: Key, _ value: Value) -> Expiry {
    switch rule {
    case .never: return .never
    case .afterWrite(let duration), .afterAccess(let duration): return .after(duration)
    case .perEntry(let decide): return decide(key, value)
    }
  }

  /// The expiry of a copy of `value`, stored under `key` at `now`, of a value that
  /// expires at `deadline` where it comes from: the earlier of `deadline` and the
  /// moment this policy gives.
  func expiry(
    ofCopyOf value: Value, forKey key: Key, storedAt now: CacheInstant, expiringAt deadline: Date
  )
    -> Expiry
  {
    guard let own = expiry(of: key, value).deadline(storedAt: now), own < CacheInstant(deadline)
    else { return .at(deadline) }
    return .at(own.date)
  }

  /// The sliding duration of an after-access policy.
  var accessDuration: Duration? {
    if case .afterAccess(let duration) = rule { return duration }
    return nil
  }
}
