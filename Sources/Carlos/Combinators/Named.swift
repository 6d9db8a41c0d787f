extension CacheLevel {
  /// Returns this level under `name`: ``CacheLevel/getWithSource(_:)`` answers name it
  /// as their source (unless a level inside has a name of its own), statistics
  /// recorded without a name use it, and log messages about it say it.
  ///
  /// ```swift
  /// let cache = memory.named("memory") >>> BasicFetcher(name: "origin", fetch: load)
  /// let answer = try await cache.getWithSource("user:42")   // answer.source == "origin" on a miss
  /// ```
  public func named(_ name: String) -> BasicCache<KeyType, OutputType> {
    BasicCache(
      getClosure: { self.get($0) },
      setClosure: { self.set($0, forKey: $1) },
      clearClosure: { self.clear() },
      memoryClosure: { self.onMemoryWarning() },
      removeClosure: { self.remove($0) },
      expiringSetClosure: { self.set($0, forKey: $1, expiry: $2) },
      removeExpiredClosure: { self.removeExpired() },
      sourceClosure: { key in
        self.getWithSource(key).map { answer in
          guard !answer.isNamed else { return answer }
          var named = answer
          named.source = name
          named.isNamed = true
          return named
        }
      },
      name: name
    )
  }
}
