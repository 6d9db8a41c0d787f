/// Why a cache operation failed, for failures common to every level.
///
/// Levels add their own error types (``DiskCacheLevelError``, ``NetworkFetcherError``)
/// for failures only they can have.
public enum FetchError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The level holds no value for the key.
  case valueNotInCache
  /// Every level of a composition was asked, and none had a value.
  case noCacheLevelsRemaining
  /// The key cannot be used by this level.
  case invalidKey
  /// The stored data could not be read back as a value.
  case invalidCachedData
  /// The level's condition said no for this key.
  case conditionNotSatisfied
  /// A key transformer could not transform the key.
  case keyTransformationFailed
  /// A value transformer could not transform the value.
  case valueTransformationFailed
  /// The level cannot expire values, so it did not store one that must expire.
  case expiryNotSupported
  /// The level cannot remove one value: a ``BasicCache`` made without a
  /// `removeClosure`, or a level written before `remove(_:)` existed (Carlos 0.x).
  case removeNotSupported

  /// A human-readable description.
  public var description: String {
    switch self {
    case .valueNotInCache: return "the level holds no value for this key"
    case .noCacheLevelsRemaining: return "no cache level had a value for this key"
    case .invalidKey: return "the key cannot be used by this level"
    case .invalidCachedData: return "the cached data could not be decoded"
    case .conditionNotSatisfied: return "the level's condition was not satisfied for this key"
    case .keyTransformationFailed: return "the key could not be transformed"
    case .valueTransformationFailed: return "the value could not be transformed"
    case .expiryNotSupported: return "the level cannot expire values, so it stored nothing"
    case .removeNotSupported: return "the level cannot remove a single value"
    }
  }
}
