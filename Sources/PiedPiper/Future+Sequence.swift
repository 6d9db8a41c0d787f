extension Sequence {
  /// Returns a future with every value, in order, once all succeed. Fails (or ends
  /// cancelled) as soon as one does, cancelling the others. Cancelling it cancels all.
  public func mergeAll<T: Sendable>() -> Future<[T]> where Element == Future<T> {
    let futures = Array(self)
    if futures.isEmpty { return Future([]) }
    let merged = Future<[T]>(pending: ())
    let slots = Lock<(values: [T?], remaining: Int)>(
      (Array(repeating: nil, count: futures.count), futures.count))
    merged.onCompletion { result in
      if result.value == nil { futures.forEach { $0.cancel() } }
    }
    for (index, future) in futures.enumerated() {
      future.onCompletion { result in
        guard case .success(let value) = result else {
          merged.complete(result.map { _ in [] })
          return
        }
        let values: [T]? = slots.withLock { slots in
          slots.values[index] = value
          slots.remaining -= 1
          return slots.remaining == 0 ? slots.values.map { $0! } : nil
        }
        if let values { merged.complete(.success(values)) }
      }
    }
    return merged
  }

  /// Returns a future with the values of the futures that succeeded, in order,
  /// once all have completed. Failures are left out, so it never fails; a
  /// cancelled future cancels it (as in the original PiedPiper), and cancelling
  /// it cancels all.
  public func mergeSome<T: Sendable>() -> Future<[T]> where Element == Future<T> {
    let futures = Array(self)
    if futures.isEmpty { return Future([]) }
    let merged = Future<[T]>(pending: ())
    merged.onCancel { futures.forEach { $0.cancel() } }
    let slots = Lock<(values: [T?], remaining: Int)>(
      (Array(repeating: nil, count: futures.count), futures.count))
    for (index, future) in futures.enumerated() {
      future.onCompletion { result in
        if result.isCancelled {
          merged.cancel()
          return
        }
        let values: [T]? = slots.withLock { slots in
          slots.values[index] = result.value
          slots.remaining -= 1
          return slots.remaining == 0 ? slots.values.compactMap { $0 } : nil
        }
        if let values { merged.complete(.success(values)) }
      }
    }
    return merged
  }

  /// Returns a future that succeeds once every future has succeeded, and fails
  /// (or ends cancelled) as soon as one does. Cancelling it cancels all.
  public func all<T: Sendable>() -> Future<Void> where Element == Future<T> {
    mergeAll().map { _ in () }
  }

  /// Returns a future that completes like whichever future completes first.
  /// Fails with ``FutureError/emptySequence`` when there are none. Cancelling it cancels all.
  public func firstCompleted<T: Sendable>() -> Future<T> where Element == Future<T> {
    let futures = Array(self)
    if futures.isEmpty { return Future(FutureError.emptySequence) }
    let first = Future<T>(pending: ())
    first.onCancel { futures.forEach { $0.cancel() } }
    for future in futures {
      future.onCompletion { first.complete($0) }
    }
    return first
  }

  /// Folds the values, in order, once all futures have succeeded; fails fast like ``mergeAll()``.
  public func reduce<T: Sendable, U: Sendable>(
    _ initialValue: U,
    combine: @escaping @Sendable (U, T) -> U
  ) -> Future<U> where Element == Future<T> {
    mergeAll().map { $0.reduce(initialValue, combine) }
  }

  /// Starts `transform` for every element and returns all the values in order,
  /// failing fast like ``mergeAll()``.
  public func traverse<U: Sendable>(_ transform: (Element) -> Future<U>) -> Future<[U]> {
    map(transform).mergeAll()
  }
}
