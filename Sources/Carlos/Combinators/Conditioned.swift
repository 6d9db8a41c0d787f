extension CacheLevel {
  /// Returns a level whose gets run only when `condition` succeeds with `true`
  /// for the key. `false` fails the get with ``FetchError/conditionNotSatisfied``;
  /// a failing condition fails it with the condition's error. Sets, clear and
  /// memory warnings are not conditioned.
  @inlinable
  public func conditioned(
    _ condition: @escaping @Sendable (KeyType) -> Future<Bool>
  ) -> BasicCache<KeyType, OutputType> {
    BasicCache(
      getClosure: { key in
        let verdict = condition(key)
        // Fast path: a condition decided at once needs no continuation closure.
        if case .success(let allowed)? = verdict.result {
          return allowed ? self.get(key) : Future(FetchError.conditionNotSatisfied)
        }
        return verdict.flatMap { (allowed: Bool) -> Future<OutputType> in
          allowed ? self.get(key) : Future(FetchError.conditionNotSatisfied)
        }
      },
      setClosure: { value, key in self.set(value, forKey: key) },
      clearClosure: { self.clear() },
      memoryClosure: { self.onMemoryWarning() }
    )
  }
}

/// Conditions a level: `condition <?> cache` is `cache.conditioned(condition)`.
@inlinable
public func <?> <Level: CacheLevel>(
  condition: @escaping @Sendable (Level.KeyType) -> Future<Bool>,
  cache: Level
) -> BasicCache<Level.KeyType, Level.OutputType> {
  cache.conditioned(condition)
}
