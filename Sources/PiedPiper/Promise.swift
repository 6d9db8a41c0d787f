/// The write side of a ``Future``: whoever holds the promise completes its future.
///
/// The first of ``succeed(_:)``, ``fail(_:)`` or ``cancel()`` wins; later calls
/// are ignored. Safe to use from many threads at once.
public final class Promise<Value: Sendable>: Sendable {
  /// The future this promise completes.
  public let future: Future<Value>

  /// Creates a promise with a pending future.
  @inlinable
  public init() {
    future = Future(pending: ())
  }

  /// Succeeds the future with `value`, unless it is already complete.
  @inlinable
  public func succeed(_ value: Value) {
    future.complete(.success(value))
  }

  /// Fails the future with `error`, unless it is already complete.
  @inlinable
  public func fail(_ error: any Error) {
    future.complete(.error(error))
  }

  /// Cancels the future, unless it is already complete.
  @inlinable
  public func cancel() {
    future.complete(.cancelled)
  }

  /// Completes the future with `result`, unless it is already complete.
  @inlinable
  public func complete(_ result: FutureResult<Value>) {
    future.complete(result)
  }

  /// Completes the future with `result`, unless it is already complete.
  /// Returns the promise, for chaining.
  @inlinable
  @discardableResult
  public func mimic(_ result: FutureResult<Value>) -> Promise<Value> {
    future.complete(result)
    return self
  }

  /// Completes this promise's future the way `other` completes. Cancelling this
  /// promise's future cancels `other`. Returns the promise, for chaining.
  @inlinable
  @discardableResult
  public func mimic(_ other: Future<Value>) -> Promise<Value> {
    // Links, not callbacks: a chain of promises mimicking each other completes
    // and cancels on a constant depth of stack.
    if let started = future.continue(with: other) { drain(started) }
    return self
  }

  /// Registers work to stop when the consumer cancels the future.
  @inlinable
  @discardableResult
  public func onCancel(_ callback: @escaping @Sendable () -> Void) -> Promise<Value> {
    future.onCancel(callback)
    return self
  }
}
