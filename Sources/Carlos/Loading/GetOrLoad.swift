extension CacheLevel where KeyType: Hashable {
  /// The value stored under `key` or, when every level of this cache misses, the one
  /// `loader` produces, which is stored into the cache (until the expiry the loader
  /// gives) before the future succeeds.
  ///
  /// Concurrent callers of one key share one pass through the cache: the first
  /// caller's get goes through every level (a composition asks each level in turn, as
  /// its `get` does), the others wait for its outcome, and `loader` runs once, only
  /// when every level missed. So 50 concurrent callers of
  /// `(memory >>> disk >>> origin).get(key, orLoad: load)` reach the origin once.
  /// This holds for every built-in level and every combinator (their results are one
  /// level each, however often they are copied); a level type of your own that is a
  /// `struct` shares passes once wrapped: keep `myLevel.named("mine")` and call it.
  /// Each caller can cancel its own future alone; the pass is cancelled when every
  /// caller waiting for it has cancelled. A pass that fails fails every caller
  /// waiting for it and stores nothing; the next call starts a new one. A value that
  /// cannot be stored is still returned (the failure is logged).
  ///
  /// ```swift
  /// let profile = try await cache.get("user:42", orLoad: { key in
  ///   Loaded(try await api.profile(key), expiry: .after(.seconds(60)))
  /// })
  /// ```
  @inlinable
  public func get(
    _ key: KeyType, orLoad loader: @escaping @Sendable (KeyType) -> Future<Loaded<OutputType>>
  ) -> Future<OutputType> {
    guard let identity = _loadIdentity else { return pass(key, loader) }
    let passes = InFlightLoads.all
    let id = InFlightLoads.ID(level: identity, key: key)
    let role: InFlightLoads.Role<OutputType> = passes.join(id)
    switch role {
    case .joined(let number, let shared):
      return follow(shared, leaving: { passes.leave(id, number) })
    case .first(let number):
      let pass = pass(key, loader)
      if let result = pass.result {
        // Ended at once (a hit in a level that answers synchronously): its future is
        // this caller's, and callers that joined meanwhile get its result.
        let shared: Promise<OutputType>? = passes.finish(id, number)
        shared?.complete(result)
        return pass
      }
      guard let shared: Promise<OutputType> = passes.shared(id, number) else { return pass }
      shared.onCancel { pass.cancel() }
      pass.onCompletion { result in
        let _: Promise<OutputType>? = passes.finish(id, number)
        shared.complete(result)
      }
      return follow(shared, leaving: { passes.leave(id, number) })
    }
  }

  /// A future of the caller's own that follows `shared`: cancelling it leaves the
  /// pass, and cancels `shared` when `leave` says it was the last caller.
  @inlinable
  func follow(_ shared: Promise<OutputType>, leaving leave: @escaping @Sendable () -> Bool)
    -> Future<OutputType>
  {
    let caller = Promise<OutputType>()
    shared.future.onCompletion { caller.complete($0) }
    caller.onCancel { if leave() { shared.cancel() } }
    return caller.future
  }

  /// `get(_:orLoad:)` with a loader whose values are stored under the level's own
  /// expiration policy.
  @inlinable
  public func get(
    _ key: KeyType, orLoad loader: @escaping @Sendable (KeyType) -> Future<OutputType>
  ) -> Future<OutputType> {
    get(key, orLoad: { key in loader(key).map { Loaded($0) } })
  }

  /// `get(_:orLoad:)` with an async loader, started at once on the calling thread of
  /// the first miss; cancelling the load cancels its task.
  @inlinable
  public func get(
    _ key: KeyType, orLoad loader: @escaping @Sendable (KeyType) async throws -> OutputType
  ) -> Future<OutputType> {
    get(key, orLoad: { key in startAsync { Loaded(try await loader(key)) } })
  }

  /// `get(_:orLoad:)` with an async loader that also says how long its value may be kept.
  @inlinable
  public func get(
    _ key: KeyType, orLoad loader: @escaping @Sendable (KeyType) async throws -> Loaded<OutputType>
  ) -> Future<OutputType> {
    get(key, orLoad: { key in startAsync { try await loader(key) } })
  }

  /// The async form of `get(_:orLoad:)`: the value stored or loaded; cancelling the
  /// awaiting task cancels this caller's wait.
  @inlinable
  public func get(
    _ key: KeyType, orLoad loader: @escaping @Sendable (KeyType) async throws -> OutputType
  ) async throws -> OutputType {
    let request: Future<OutputType> = get(key, orLoad: loader)
    return try await request.value
  }

  /// The async form of `get(_:orLoad:)` with a loader that says how long its value
  /// may be kept.
  @inlinable
  public func get(
    _ key: KeyType, orLoad loader: @escaping @Sendable (KeyType) async throws -> Loaded<OutputType>
  ) async throws -> OutputType {
    let request: Future<OutputType> = get(key, orLoad: loader)
    return try await request.value
  }

  /// One pass through this cache for `key`: its get, then on a miss `loader`, whose
  /// value is stored.
  @inlinable
  func pass(
    _ key: KeyType, _ loader: @escaping @Sendable (KeyType) -> Future<Loaded<OutputType>>
  ) -> Future<OutputType> {
    let found: Future<OutputType> = get(key)
    if case .success? = found.result { return found }
    let outcome = Promise<OutputType>()
    outcome.onCancel { found.cancel() }
    found.onCompletion { result in
      switch result {
      case .success(let value): outcome.succeed(value)
      case .cancelled: outcome.cancel()
      case .error:
        let request = loader(key)
        outcome.onCancel { request.cancel() }
        request.onCompletion { result in self.store(result, key: key) { outcome.complete($0) } }
      }
    }
    return outcome.future
  }

  /// Stores a successful load, then reports the caller's outcome to `done`.
  @inlinable
  func store(
    _ result: FutureResult<Loaded<OutputType>>, key: KeyType,
    then done: @escaping @Sendable (FutureResult<OutputType>) -> Void
  ) {
    switch result {
    case .success(let loaded):
      let stored: Future<Void>
      if case .never = loaded.expiry {
        stored = set(loaded.value, forKey: key)
      } else {
        stored = set(loaded.value, forKey: key, expiry: loaded.expiry)
      }
      stored.onCompletion { outcome in
        if case .error(let error) = outcome {
          CarlosLogger.log(
            "Could not store a loaded value: \(error)", .warning,
            metadata: ["level": self.levelName, "key": CarlosLogger.key(key)])
        }
        done(.success(loaded.value))
      }
    case .error(let error): done(.error(error))
    case .cancelled: done(.cancelled)
    }
  }
}
