extension Future {
  /// Returns a pending future completed by `body` once this future completes;
  /// `body` completes it with ``completeLater(_:)`` and returns what that returns.
  /// Cancelling the returned future cancels this one.
  @inlinable
  func derive<U>(
    _ body: @escaping @Sendable (FutureResult<Value>, Future<U>) -> (any FutureDelivery)?
  ) -> Future<U> {
    let derived = Future<U>(pending: ())
    derived.cancelOnCancel(self)
    if let started = chain({ body($0, derived) }) { drain(started) }
    return derived
  }

  /// Returns a future with the value transformed; a thrown error fails it.
  /// Errors and cancellation pass through. Cancelling it cancels this future.
  @inlinable
  public func map<U>(_ transform: @escaping @Sendable (Value) throws -> U) -> Future<U> {
    if let result { return Future<U>(result: result.map(transform)) }
    return derive { result, derived in derived.completeLater(result.map(transform)) }
  }

  /// Returns a future that continues with the future produced from the value.
  /// Cancelling it cancels whichever of the two is running.
  @inlinable
  public func flatMap<U>(_ transform: @escaping @Sendable (Value) -> Future<U>) -> Future<U> {
    if case .success(let value)? = result { return transform(value) }
    return derive { result, derived in
      switch result {
      case .success(let value): return derived.continue(with: transform(value))
      case .error(let error): return derived.completeLater(.error(error))
      case .cancelled: return derived.completeLater(.cancelled)
      }
    }
  }

  /// Completes this (derived, pending) future like `next`, and cancels `next`
  /// when this one is cancelled. Returns the callbacks to run when `next` is
  /// already complete.
  @inlinable
  func `continue`(with next: Future<Value>) -> (any FutureDelivery)? {
    cancelOnCancel(next)
    return next.chain { [self] in completeLater($0) }
  }

  /// Returns a future completed with the result produced from the value.
  @inlinable
  public func flatMap<U>(_ transform: @escaping @Sendable (Value) -> FutureResult<U>) -> Future<U> {
    if let result { return Future<U>(result: result.flatMap(transform)) }
    return derive { result, derived in derived.completeLater(result.flatMap(transform)) }
  }

  /// Returns a future with the unwrapped value; `nil` fails it with ``FutureError/valueMissing``.
  @inlinable
  public func flatMap<U>(_ transform: @escaping @Sendable (Value) -> U?) -> Future<U> {
    flatMap { (value: Value) -> FutureResult<U> in
      transform(value).map { .success($0) } ?? .error(FutureError.valueMissing)
    }
  }

  /// Keeps the value only when `isIncluded` holds; otherwise fails with
  /// ``FutureError/filterNotSatisfied``.
  @inlinable
  public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Future<Value> {
    flatMap { (value: Value) -> FutureResult<Value> in
      isIncluded(value) ? .success(value) : .error(FutureError.filterNotSatisfied)
    }
  }

  /// Keeps the value only when the future `isIncluded` returns succeeds with `true`;
  /// `false` fails with ``FutureError/filterNotSatisfied``.
  @inlinable
  public func filter(_ isIncluded: @escaping @Sendable (Value) -> Future<Bool>) -> Future<Value> {
    flatMap { (value: Value) -> Future<Value> in
      isIncluded(value).flatMap { (keep: Bool) -> FutureResult<Value> in
        keep ? .success(value) : .error(FutureError.filterNotSatisfied)
      }
    }
  }

  /// Replaces a failure with `value`. Cancellation is not recovered.
  @inlinable
  public func recover(_ value: Value) -> Future<Value> {
    recover { (_: any Error) -> Value in value }
  }

  /// Replaces a failure with the value `handler` returns. Cancellation is not recovered.
  @inlinable
  public func recover(_ handler: @escaping @Sendable (any Error) -> Value) -> Future<Value> {
    recover { (error: any Error) -> Future<Value> in Future(handler(error)) }
  }

  /// Replaces a failure with the future `handler` returns. Cancellation is not recovered.
  @inlinable
  public func recover(_ handler: @escaping @Sendable (any Error) -> Future<Value>) -> Future<Value>
  {
    if case .error(let error)? = result { return handler(error) }
    if result != nil { return self }
    return derive { result, derived in
      guard case .error(let error) = result else { return derived.completeLater(result) }
      return derived.continue(with: handler(error))
    }
  }

  /// Returns a future with both values once both succeed; fails or ends cancelled
  /// as soon as either does. Cancelling it cancels both.
  @inlinable
  public func zip<U>(_ other: Future<U>) -> Future<(Value, U)> {
    let zipped = flatMap { (first: Value) -> Future<(Value, U)> in
      other.map { (first, $0) }
    }
    // `flatMap` only looks at `other` once this future has succeeded; watch it
    // from the start too, so its failure or cancellation ends `zipped` at once,
    // and cancelling `zipped` reaches it while this future is still pending.
    // Links, not callbacks, so a chain of zips ends on a constant depth of stack.
    zipped.cancelOnCancel(other)
    let started = other.chain { result in
      switch result {
      case .success: return nil
      case .error(let error): return zipped.completeLater(.error(error))
      case .cancelled: return zipped.completeLater(.cancelled)
      }
    }
    if let started { drain(started) }
    return zipped
  }
}
