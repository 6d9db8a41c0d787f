extension CacheLevel {
  /// Composes this level with a lower one: `get` asks this level first and, on a
  /// miss, asks `next`; a value found in `next` is stored into this level before
  /// the get succeeds.
  ///
  /// - get fails with `next`'s error when both miss. Cancelling it cancels
  ///   whichever inner request is running; a cancelled inner get does not fall
  ///   through to `next`.
  /// - set stores into both, succeeding when both succeed.
  /// - clear and onMemoryWarning reach both.
  @inlinable
  public func compose<Next: CacheLevel>(_ next: Next) -> BasicCache<KeyType, OutputType>
  where Next.KeyType == KeyType, Next.OutputType == OutputType {
    BasicCache(
      getClosure: { key in composedGet(key, upper: self, lower: next) },
      setClosure: { value, key in
        bothSucceed(self.set(value, forKey: key), next.set(value, forKey: key))
      },
      clearClosure: {
        self.clear()
        next.clear()
      },
      memoryClosure: {
        self.onMemoryWarning()
        next.onMemoryWarning()
      }
    )
  }

  /// Composes this level with a fetch closure that answers the gets this level misses.
  /// The closure accepts `set` as a successful no-op.
  @inlinable
  public func compose(
    _ fetch: @escaping @Sendable (KeyType) -> Future<OutputType>
  ) -> BasicCache<KeyType, OutputType> {
    compose(BasicFetcher(getClosure: fetch))
  }
}

/// The get of `upper >>> lower`.
@inlinable
func composedGet<Upper: CacheLevel, Lower: CacheLevel>(
  _ key: Upper.KeyType,
  upper: Upper,
  lower: Lower
) -> Future<Upper.OutputType>
where Upper.KeyType == Lower.KeyType, Upper.OutputType == Lower.OutputType {
  let first = upper.get(key)
  if case .success? = first.result { return first }
  let promise = Promise<Upper.OutputType>()
  promise.onCancel { first.cancel() }
  first.onCompletion { result in
    switch result {
    case .success(let value):
      promise.succeed(value)
    case .cancelled:
      promise.cancel()
    case .error:
      if promise.future.isCompleted { return }
      let second = lower.get(key)
      promise.onCancel { second.cancel() }
      second.onCompletion { result in
        if case .success(let value) = result {
          upper.set(value, forKey: key).onFailure { error in
            Logger.log("Could not store a fetched value in the upper level: \(error)", .warning)
          }
        }
        promise.complete(result)
      }
    }
  }
  return promise.future
}

/// A future that succeeds when both `first` and `second` succeed, and fails as soon as either fails.
@inlinable
func bothSucceed(_ first: Future<Void>, _ second: Future<Void>) -> Future<Void> {
  if case .success? = first.result, case .success? = second.result { return first }
  return first.zip(second).map { _ in () }
}
