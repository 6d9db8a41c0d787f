extension FutureResult where Value: Sendable {
  /// Continues a successful result with the future `transform` returns.
  ///
  /// A failure or a cancellation gives a future that has already failed or been
  /// cancelled, without calling `transform`.
  @inlinable
  public func flatMap<U: Sendable>(_ transform: (Value) -> Future<U>) -> Future<U> {
    switch self {
    case .success(let value): return transform(value)
    case .error(let error): return Future(error)
    case .cancelled: return Future(result: .cancelled)
    }
  }
}

extension FutureResult {
  /// Transforms a successful value into an optional one; `nil` gives a failure
  /// with ``FutureError/valueMissing``. Errors and cancellation pass through.
  @inlinable
  public func flatMap<U>(_ transform: (Value) -> U?) -> FutureResult<U> {
    flatMap { (value: Value) -> FutureResult<U> in
      transform(value).map { .success($0) } ?? .error(FutureError.valueMissing)
    }
  }
}
