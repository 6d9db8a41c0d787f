/// The outcome of a ``Future``: a value, an error, or cancellation.
public enum FutureResult<Value> {
  /// The future succeeded with a value.
  case success(Value)
  /// The future failed with an error.
  case error(any Error)
  /// The future was cancelled before it produced a value.
  case cancelled

  /// The value when the result is a success, otherwise `nil`.
  @inlinable
  public var value: Value? {
    if case .success(let value) = self { return value }
    return nil
  }

  /// The error when the result is a failure, otherwise `nil`.
  @inlinable
  public var error: (any Error)? {
    if case .error(let error) = self { return error }
    return nil
  }

  /// Whether the result is a cancellation.
  @inlinable
  public var isCancelled: Bool {
    if case .cancelled = self { return true }
    return false
  }

  /// Returns the value, or throws the error (`CancellationError` when cancelled).
  @inlinable
  public func get() throws -> Value {
    switch self {
    case .success(let value): return value
    case .error(let error): throw error
    case .cancelled: throw CancellationError()
    }
  }

  /// Transforms a successful value; errors and cancellation pass through.
  @inlinable
  public func map<U>(_ transform: (Value) throws -> U) -> FutureResult<U> {
    switch self {
    case .success(let value):
      do { return .success(try transform(value)) } catch { return .error(error) }
    case .error(let error): return .error(error)
    case .cancelled: return .cancelled
    }
  }

  /// Transforms a successful value into another result; errors and cancellation pass through.
  @inlinable
  public func flatMap<U>(_ transform: (Value) -> FutureResult<U>) -> FutureResult<U> {
    switch self {
    case .success(let value): return transform(value)
    case .error(let error): return .error(error)
    case .cancelled: return .cancelled
    }
  }

  /// Keeps a successful value only when `isIncluded` holds; otherwise fails with
  /// ``FutureError/filterNotSatisfied``.
  @inlinable
  public func filter(_ isIncluded: (Value) -> Bool) -> FutureResult<Value> {
    flatMap { isIncluded($0) ? .success($0) : .error(FutureError.filterNotSatisfied) }
  }
}

extension FutureResult: Sendable where Value: Sendable {}

extension FutureResult: CustomStringConvertible {
  /// A readable form of the result: `success(value)`, `error(error)` or `cancelled`.
  public var description: String {
    switch self {
    case .success(let value): return "success(\(value))"
    case .error(let error): return "error(\(error))"
    case .cancelled: return "cancelled"
    }
  }
}
