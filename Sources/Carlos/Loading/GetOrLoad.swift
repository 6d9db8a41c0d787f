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
  public func get(
    _ key: KeyType, orLoad loader: @escaping @Sendable (KeyType) -> Future<Loaded<OutputType>>
  ) -> Future<OutputType> {
    guard let identity = loadIdentity else { return pass(key, loader) }
    let loads = InFlightLoads.all
    let id = InFlightLoads.ID(level: identity, key: AnyHashable(key))
    let (load, shared, isNew): (InFlightLoads.Load, Promise<OutputType>, Bool) = loads.join(id)
    if isNew {
      let pass = pass(key, loader)
      shared.onCancel { pass.cancel() }
      pass.onCompletion { result in
        loads.finish(id, load)
        shared.complete(result)
      }
      // A pass that ended at once (a hit in a level that answers synchronously) has
      // nobody to share with: its future is the caller's.
      if shared.future.result != nil { return shared.future }
    }
    let caller = Promise<OutputType>()
    shared.future.onCompletion { caller.complete($0) }
    caller.onCancel { if loads.leave(id, load) { shared.cancel() } }
    return caller.future
  }

  /// `get(_:orLoad:)` with a loader whose values are stored under the level's own
  /// expiration policy.
  public func get(
    _ key: KeyType, orLoad loader: @escaping @Sendable (KeyType) -> Future<OutputType>
  ) -> Future<OutputType> {
    get(key, orLoad: { key in loader(key).map { Loaded($0) } })
  }

  /// `get(_:orLoad:)` with an async loader, started at once on the calling thread of
  /// the first miss; cancelling the load cancels its task.
  public func get(
    _ key: KeyType, orLoad loader: @escaping @Sendable (KeyType) async throws -> OutputType
  ) -> Future<OutputType> {
    get(key, orLoad: { key in startAsync { Loaded(try await loader(key)) } })
  }

  /// `get(_:orLoad:)` with an async loader that also says how long its value may be kept.
  public func get(
    _ key: KeyType, orLoad loader: @escaping @Sendable (KeyType) async throws -> Loaded<OutputType>
  ) -> Future<OutputType> {
    get(key, orLoad: { key in startAsync { try await loader(key) } })
  }

  /// The async form of `get(_:orLoad:)`: the value stored or loaded; cancelling the
  /// awaiting task cancels this caller's wait.
  public func get(
    _ key: KeyType, orLoad loader: @escaping @Sendable (KeyType) async throws -> OutputType
  ) async throws -> OutputType {
    let request: Future<OutputType> = get(key, orLoad: loader)
    return try await request.value
  }

  /// The async form of `get(_:orLoad:)` with a loader that says how long its value
  /// may be kept.
  public func get(
    _ key: KeyType, orLoad loader: @escaping @Sendable (KeyType) async throws -> Loaded<OutputType>
  ) async throws -> OutputType {
    let request: Future<OutputType> = get(key, orLoad: loader)
    return try await request.value
  }

  /// One pass through this cache for `key`: its get, then on a miss `loader`, whose
  /// value is stored.
  private func pass(
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
  private func store(
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
            metadata: ["level": self.levelName, "key": "\(key)"])
        }
        done(.success(loaded.value))
      }
    case .error(let error): done(.error(error))
    case .cancelled: done(.cancelled)
    }
  }

  /// What tells this level apart from others for sharing loads: its object for a
  /// class, the shared identity of a ``BasicCache``; `nil` for other value types.
  var loadIdentity: ObjectIdentifier? {
    if let identified = self as? any LoadIdentified { return identified.identity }
    if Self.self is AnyClass { return ObjectIdentifier(self as AnyObject) }
    return nil
  }
}

/// A level value whose copies are one level for sharing loads.
protocol LoadIdentified {
  /// The identity its copies share.
  var identity: ObjectIdentifier { get }
}
