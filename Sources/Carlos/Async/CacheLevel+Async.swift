extension CacheLevel {
  /// The value stored under `key`: the async form of ``CacheLevel/get(_:)``.
  ///
  /// Throws what the get fails with (``FetchError/valueNotInCache`` on a miss), or
  /// `CancellationError` when it is cancelled. Cancelling the awaiting task cancels
  /// the get. In async code this form is the one Swift picks; the future stays
  /// reachable by its type: `let future: Future<Value> = cache.get(key)`.
  ///
  /// ```swift
  /// let data = try await cache.get("answer")
  /// ```
  @inlinable
  public func get(_ key: KeyType) async throws -> OutputType {
    let request: Future<OutputType> = get(key)
    return try await request.value
  }

  /// Stores `value` under `key` and waits until it is stored: the async form of
  /// ``CacheLevel/set(_:forKey:)``. Throws what the set fails with.
  @inlinable
  public func set(_ value: OutputType, forKey key: KeyType) async throws {
    let request: Future<Void> = set(value, forKey: key)
    try await request.value
  }

  /// Stores `value` under `key` until `expiry` and waits until it is stored: the
  /// async form of ``CacheLevel/set(_:forKey:expiry:)``.
  @inlinable
  public func set(_ value: OutputType, forKey key: KeyType, expiry: Expiry) async throws {
    let request: Future<Void> = set(value, forKey: key, expiry: expiry)
    try await request.value
  }

  /// Removes the value stored under `key` and waits until it is gone: the async form
  /// of ``CacheLevel/remove(_:)``.
  @inlinable
  public func remove(_ key: KeyType) async throws {
    let request: Future<Void> = remove(key)
    try await request.value
  }

  /// Removes every expired value and waits until they are gone: the async form of
  /// ``CacheLevel/removeExpired()``.
  @inlinable
  public func removeExpired() async throws {
    let request: Future<Void> = removeExpired()
    try await request.value
  }

  /// The value stored under `key` with the level that produced it: the async form of
  /// ``CacheLevel/getWithSource(_:)``.
  @inlinable
  public func getWithSource(_ key: KeyType) async throws -> CacheAnswer<OutputType> {
    let request: Future<CacheAnswer<OutputType>> = getWithSource(key)
    return try await request.value
  }
}

extension TimedCacheLevel {
  /// The value stored under `key` with when it was stored and when it expires: the
  /// async form of ``TimedCacheLevel/entry(forKey:)``.
  @inlinable
  public func entry(forKey key: KeyType) async throws -> CacheEntry<OutputType> {
    let request: Future<CacheEntry<OutputType>> = entry(forKey: key)
    return try await request.value
  }
}
