extension Future {
  /// Returns a future with this future's value paired with the value of `result`.
  ///
  /// When `result` is a failure or a cancellation, the returned future has
  /// already failed or been cancelled (and this future is left alone);
  /// otherwise it completes like this future. Cancelling it cancels this future.
  @inlinable
  public func zip<U: Sendable>(_ result: FutureResult<U>) -> Future<(Value, U)> {
    switch result {
    case .success(let other): return map { ($0, other) }
    case .error(let error): return Future<(Value, U)>(error)
    case .cancelled: return Future<(Value, U)>(result: .cancelled)
    }
  }
}
