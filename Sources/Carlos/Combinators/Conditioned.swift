extension CacheLevel {
  /// Returns a level whose gets run only when `condition` succeeds with `true`
  /// for the key. `false` fails the get with ``FetchError/conditionNotSatisfied``;
  /// a failing condition fails it with the condition's error. `remove` is
  /// conditioned the same way (a key the level may not read is not removed).
  /// Sets, clear and memory warnings are not conditioned.
  @inlinable
  public func conditioned(
    _ condition: @escaping @Sendable (KeyType) -> Future<Bool>
  ) -> BasicCache<KeyType, OutputType> {
    BasicCache(
      forwardingTo: self,
      get: { key in ifAllowed(condition(key)) { self.get(key) } },
      remove: { key in ifAllowed(condition(key)) { self.remove(key) } },
      getWithSource: { key in ifAllowed(condition(key)) { self.getWithSource(key) } }
    )
  }
}

extension CacheLevel {
  /// Returns a level whose gets run only when the async `condition` returns `true`
  /// for the key (see `conditioned(_:)`);
  /// an error it throws fails the get.
  @inlinable
  public func conditioned(
    _ condition: @escaping @Sendable (KeyType) async throws -> Bool
  ) -> BasicCache<KeyType, OutputType> {
    conditioned { key in startAsync { try await condition(key) } }
  }
}

/// Conditions a level with an async condition: `{ key in await isAllowed(key) } <?> cache`.
@inlinable
public func <?> <Level: CacheLevel>(
  condition: @escaping @Sendable (Level.KeyType) async throws -> Bool,
  cache: Level
) -> BasicCache<Level.KeyType, Level.OutputType> {
  cache.conditioned(condition)
}

/// Conditions a level: `condition <?> cache` is `cache.conditioned(condition)`.
@inlinable
public func <?> <Level: CacheLevel>(
  condition: @escaping @Sendable (Level.KeyType) -> Future<Bool>,
  cache: Level
) -> BasicCache<Level.KeyType, Level.OutputType> {
  cache.conditioned(condition)
}

/// Runs `operation` when `verdict` succeeds with true; fails with
/// ``FetchError/conditionNotSatisfied`` on false and with the condition's error on failure.
@inlinable
func ifAllowed<T: Sendable>(
  _ verdict: Future<Bool>,
  _ operation: @escaping @Sendable () -> Future<T>
) -> Future<T> {
  // Fast path: a condition decided at once needs no continuation closure.
  if case .success(let allowed)? = verdict.result {
    return allowed ? operation() : Future(FetchError.conditionNotSatisfied)
  }
  return verdict.flatMap { (allowed: Bool) -> Future<T> in
    allowed ? operation() : Future(FetchError.conditionNotSatisfied)
  }
}
