import Dispatch

extension CacheLevel {
  /// Returns a level that runs every operation of this level — get, set, remove,
  /// removeExpired, clear and memory warnings — on `queue`.
  ///
  /// The returned futures complete the way this level's futures do. Cancelling
  /// a get or set before it has reached the queue means it never runs;
  /// cancelling it afterwards cancels this level's request.
  public func dispatch(_ queue: DispatchQueue) -> BasicCache<KeyType, OutputType> {
    BasicCache(
      getClosure: { key in
        dispatched(on: queue) { self.get(key) }
      },
      setClosure: { value, key in
        dispatched(on: queue) { self.set(value, forKey: key) }
      },
      clearClosure: {
        queue.async { self.clear() }
      },
      memoryClosure: {
        queue.async { self.onMemoryWarning() }
      },
      removeClosure: { key in
        dispatched(on: queue) { self.remove(key) }
      },
      expiringSetClosure: { value, key, expiry in
        dispatched(on: queue) { self.set(value, forKey: key, expiry: expiry) }
      },
      removeExpiredClosure: {
        dispatched(on: queue) { self.removeExpired() }
      },
      sourceClosure: { key in
        dispatched(on: queue) { self.getWithSource(key) }
      }
    )
  }
}

/// Starts `operation` on `queue` and returns a future that completes like the
/// future it returns; the operation is skipped when the future is cancelled first.
private func dispatched<T: Sendable>(
  on queue: DispatchQueue,
  _ operation: @escaping @Sendable () -> Future<T>
) -> Future<T> {
  let promise = Promise<T>()
  queue.async {
    if promise.future.isCompleted { return }
    promise.mimic(operation())
  }
  return promise.future
}
