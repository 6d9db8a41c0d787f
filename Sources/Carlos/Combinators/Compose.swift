import Foundation

extension CacheLevel {
  /// Composes this level with a lower one: `get` asks this level first and, on a
  /// miss, asks `next`; a value found in `next` is stored into this level before
  /// the get succeeds.
  ///
  /// - get fails with `next`'s error when both miss. Cancelling it cancels
  ///   whichever inner request is running; a cancelled inner get does not fall
  ///   through to `next`.
  /// - set (with or without an expiry) and remove reach both levels, succeeding
  ///   when both succeed; clear, removeExpired and onMemoryWarning reach both.
  /// - Coherence: a value found in `next` is stored into this level only if no
  ///   set, remove or clear went through the composition for that key since the get
  ///   started, so a slow fetch never overwrites a newer value. Two sets of one key at
  ///   once reach both levels in the same order, so both levels keep the same value
  ///   (the one set last). Writes made on a level directly, not through the
  ///   composition, are not tracked.
  /// - A value copied up from `next` expires in this level when this level's own
  ///   expiration policy says, or when it expires in `next` (when `next` is a
  ///   ``TimedCacheLevel`` that tells), whichever comes first: no level keeps a copy
  ///   longer than the level it came from.
  ///
  /// ```swift
  /// let cache = memory.compose(disk)   // the same as memory >>> disk
  /// ```
  @inlinable
  public func compose<Next: CacheLevel>(_ next: Next) -> BasicCache<KeyType, OutputType>
  where Next.KeyType == KeyType, Next.OutputType == OutputType {
    compose(next, versions: WriteVersions())
  }

  /// The composition of this level and `next` whose writes are counted in `versions`.
  @inlinable
  func compose<Next: CacheLevel>(_ next: Next, versions: WriteVersions) -> BasicCache<
    KeyType, OutputType
  >
  where Next.KeyType == KeyType, Next.OutputType == OutputType {
    BasicCache(
      getClosure: { key in composedGet(key, upper: self, lower: next, versions: versions) },
      setClosure: { value, key in
        let (upper, lower) = versions.write(key) {
          (self.set(value, forKey: key), next.set(value, forKey: key))
        }
        return bothSucceed(upper, lower)
      },
      clearClosure: {
        versions.writeAll {
          self.clear()
          next.clear()
        }
      },
      memoryClosure: {
        self.onMemoryWarning()
        next.onMemoryWarning()
      },
      removeClosure: { key in
        let (upper, lower) = versions.write(key) { (self.remove(key), next.remove(key)) }
        return bothSucceed(upper, lower)
      },
      expiringSetClosure: { value, key, expiry in
        let (upper, lower) = versions.write(key) {
          (
            self.set(value, forKey: key, expiry: expiry),
            next.set(value, forKey: key, expiry: expiry)
          )
        }
        return bothSucceed(upper, lower)
      },
      removeExpiredClosure: { bothSucceed(self.removeExpired(), next.removeExpired()) },
      sourceClosure: { key in
        composedGetWithSource(key, upper: self, lower: next, versions: versions)
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

  /// Composes this level with an async function that answers the gets this level
  /// misses (see ``BasicFetcher/init(name:fetch:)``).
  @inlinable
  public func compose(
    _ fetch: @escaping @Sendable (KeyType) async throws -> OutputType
  ) -> BasicCache<KeyType, OutputType> {
    compose(BasicFetcher(fetch: fetch))
  }
}

/// The get of `upper >>> lower`.
@inlinable
func composedGet<Upper: CacheLevel, Lower: CacheLevel>(
  _ key: Upper.KeyType,
  upper: Upper,
  lower: Lower,
  versions: WriteVersions
) -> Future<Upper.OutputType>
where Upper.KeyType == Lower.KeyType, Upper.OutputType == Lower.OutputType {
  let first = upper.get(key)
  if case .success? = first.result { return first }
  return fallThrough(
    key, first: first, versions: versions, lower: { lower.getWithSource(key) },
    writeBack: { answer, version in
      _ = writeBack(
        answer.value, key: key, into: upper, expiringBy: answer.expiresAt,
        ifUnchangedSince: version, versions: versions)
      return answer.value
    })
}

/// The `getWithSource` of `upper >>> lower`: the answer of the level that had the
/// value, marked as written back when it was stored into `upper`.
@inlinable
func composedGetWithSource<Upper: CacheLevel, Lower: CacheLevel>(
  _ key: Upper.KeyType,
  upper: Upper,
  lower: Lower,
  versions: WriteVersions
) -> Future<CacheAnswer<Upper.OutputType>>
where Upper.KeyType == Lower.KeyType, Upper.OutputType == Lower.OutputType {
  fallThrough(
    key, first: upper.getWithSource(key), versions: versions, lower: { lower.getWithSource(key) },
    writeBack: { answer, version in
      var answer = answer
      answer.wasWrittenBack =
        writeBack(
          answer.value, key: key, into: upper, expiringBy: answer.expiresAt,
          ifUnchangedSince: version, versions: versions)
      return answer
    })
}

/// Completes like `first` when it succeeds or is cancelled; when it fails, like
/// `lower()`, whose success goes through `writeBack` with the version read before
/// `lower()` was asked.
@inlinable
func fallThrough<Key: Sendable, T: Sendable, Below: Sendable>(
  _ key: Key,
  first: Future<T>,
  versions: WriteVersions,
  lower: @escaping @Sendable () -> Future<Below>,
  writeBack: @escaping @Sendable (Below, UInt64) -> T
) -> Future<T> {
  if case .success? = first.result { return first }
  let context = CacheCallContext.capture()
  let promise = Promise<T>()
  promise.onCancel { first.cancel() }
  first.onCompletion { result in
    switch result {
    case .success(let value):
      promise.succeed(value)
    case .cancelled:
      promise.cancel()
    case .error:
      if promise.future.isCompleted { return }
      // Read after the upper miss: a write that bumps it later also reached
      // the lower level before this get's request, or is seen by the write-back.
      let version = versions.version(of: key)
      let second = CacheCallContext.run(with: context, lower)
      promise.onCancel { second.cancel() }
      second.onCompletion { result in
        switch result {
        case .success(let value): promise.succeed(writeBack(value, version))
        case .error(let error): promise.fail(error)
        case .cancelled: promise.cancel()
        }
      }
    }
  }
  return promise.future
}

/// Stores a value found below, which expires there at `deadline` (`nil`: never, or
/// not told), into `upper`, unless a write of `key` went through the composition since
/// `version` was read; returns whether it did.
@inlinable
@discardableResult
func writeBack<Upper: CacheLevel>(
  _ value: Upper.OutputType,
  key: Upper.KeyType,
  into upper: Upper,
  expiringBy deadline: Date?,
  ifUnchangedSince version: UInt64,
  versions: WriteVersions
) -> Bool {
  let stored = versions.ifUnchanged(key, since: version) {
    guard let deadline else { return upper.set(value, forKey: key) }
    return upper.set(
      value, forKey: key, expiry: upper.expiry(forCopyOf: value, forKey: key, expiringAt: deadline))
  }
  stored?.onFailure { error in
    CarlosLogger.log(
      "Could not store a fetched value in the upper level: \(error)", .warning,
      metadata: ["level": upper.levelName, "key": CarlosLogger.key(key)])
  }
  return stored != nil
}

/// A future that succeeds when both `first` and `second` succeed, and fails as soon as either fails.
@inlinable
func bothSucceed(_ first: Future<Void>, _ second: Future<Void>) -> Future<Void> {
  if case .success? = first.result, case .success? = second.result { return first }
  return first.zip(second).map { _ in () }
}
