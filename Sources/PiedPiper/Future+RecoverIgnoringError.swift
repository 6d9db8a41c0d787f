extension Future {
  /// Replaces a failure with the value `handler` returns; `handler` does not
  /// need the error. Cancellation is not recovered.
  @inlinable
  public func recover(_ handler: @escaping @Sendable () -> Value) -> Future<Value> {
    recover { (_: any Error) -> Value in handler() }
  }

  /// Replaces a failure with the future `handler` returns; `handler` does not
  /// need the error. Cancellation is not recovered. Cancelling the returned
  /// future cancels whichever of the two futures is running.
  @inlinable
  public func recover(_ handler: @escaping @Sendable () -> Future<Value>) -> Future<Value> {
    recover { (_: any Error) -> Future<Value> in handler() }
  }

  /// Replaces a failure with the result `handler` returns: its value, its
  /// error, or a cancellation. Cancellation of this future is not recovered.
  @inlinable
  public func recover(_ handler: @escaping @Sendable () -> FutureResult<Value>) -> Future<Value> {
    recover { (_: any Error) -> Future<Value> in Future(result: handler()) }
  }

  /// Replaces a failure with the result `handler` makes from the error: its
  /// value, its error, or a cancellation. Cancellation of this future is not recovered.
  @inlinable
  public func recover(_ handler: @escaping @Sendable (any Error) -> FutureResult<Value>)
    -> Future<Value>
  {
    recover { (error: any Error) -> Future<Value> in Future(result: handler(error)) }
  }
}
