extension Promise {
  /// Registers a callback for the value the promise's future succeeds with, and
  /// returns the promise, so that callbacks and `mimic` chain on it.
  ///
  /// The same as ``Future/onSuccess(_:)`` on ``future``: the callback runs
  /// exactly once, on the thread that completes the future, or at once on this
  /// thread when it has already succeeded.
  @inlinable
  @discardableResult
  public func onSuccess(_ callback: @escaping @Sendable (Value) -> Void) -> Promise<Value> {
    future.onSuccess(callback)
    return self
  }

  /// Registers a callback for the error the promise's future fails with, and
  /// returns the promise. Runs as described in ``onSuccess(_:)``.
  @inlinable
  @discardableResult
  public func onFailure(_ callback: @escaping @Sendable (any Error) -> Void) -> Promise<Value> {
    future.onFailure(callback)
    return self
  }

  /// Registers a callback for the outcome of the promise's future, whatever it
  /// is, and returns the promise. Runs as described in ``onSuccess(_:)``.
  @inlinable
  @discardableResult
  public func onCompletion(_ callback: @escaping Future<Value>.Callback) -> Promise<Value> {
    future.onCompletion(callback)
    return self
  }
}
