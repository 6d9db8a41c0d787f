/// Which of two levels a ``switchLevels(cacheA:cacheB:switchClosure:)`` level uses for a key.
public enum CacheLevelSwitchResult: Sendable, Equatable {
  /// Use the first level, `cacheA`.
  case cacheA
  /// Use the second level, `cacheB`.
  case cacheB
}

/// Returns a level that sends each get, set and remove to one of two lanes, chosen
/// per key by `switchClosure`; clear, removeExpired and memory warnings reach both lanes.
///
/// - Parameters:
///   - cacheA: the lane used when `switchClosure` returns `.cacheA`.
///   - cacheB: the lane used when `switchClosure` returns `.cacheB`.
///   - switchClosure: chooses the lane for a key.
public func switchLevels<A: CacheLevel, B: CacheLevel>(
  cacheA: A,
  cacheB: B,
  switchClosure: @escaping @Sendable (A.KeyType) -> CacheLevelSwitchResult
) -> BasicCache<A.KeyType, A.OutputType>
where A.KeyType == B.KeyType, A.OutputType == B.OutputType {
  BasicCache(
    getClosure: { key in
      switch switchClosure(key) {
      case .cacheA: return cacheA.get(key)
      case .cacheB: return cacheB.get(key)
      }
    },
    setClosure: { value, key in
      switch switchClosure(key) {
      case .cacheA: return cacheA.set(value, forKey: key)
      case .cacheB: return cacheB.set(value, forKey: key)
      }
    },
    clearClosure: {
      cacheA.clear()
      cacheB.clear()
    },
    memoryClosure: {
      cacheA.onMemoryWarning()
      cacheB.onMemoryWarning()
    },
    removeClosure: { key in
      switch switchClosure(key) {
      case .cacheA: return cacheA.remove(key)
      case .cacheB: return cacheB.remove(key)
      }
    },
    expiringSetClosure: { value, key, expiry in
      switch switchClosure(key) {
      case .cacheA: return cacheA.set(value, forKey: key, expiry: expiry)
      case .cacheB: return cacheB.set(value, forKey: key, expiry: expiry)
      }
    },
    removeExpiredClosure: { bothSucceed(cacheA.removeExpired(), cacheB.removeExpired()) },
    sourceClosure: { key in
      switch switchClosure(key) {
      case .cacheA: return cacheA.getWithSource(key)
      case .cacheB: return cacheB.getWithSource(key)
      }
    }
  )
}
