extension Future {
  /// Creates a future driven by an async operation, started at once in a new `Task`.
  ///
  /// The future succeeds with the operation's value, fails with the error it
  /// throws, and ends cancelled when it throws `CancellationError`. Cancelling
  /// the future cancels the task.
  public convenience init(operation: @escaping @Sendable () async throws -> Value) {
    self.init(pending: ())
    let task = Task { [self] in
      do {
        complete(.success(try await operation()))
      } catch is CancellationError {
        complete(.cancelled)
      } catch {
        complete(.error(error))
      }
    }
    onCancel { task.cancel() }
  }

  /// Waits for the outcome: returns the value, throws the failure's error, or
  /// throws `CancellationError` when the future was cancelled.
  ///
  /// Cancelling the awaiting task cancels this future.
  @inlinable
  public var value: Value {
    get async throws {
      if let result { return try result.get() }
      // A checked continuation: with an unsafe one, ThreadSanitizer reported the
      // runtime's own hand-off between `withUnsafeThrowingContinuation` and a
      // `resume` on another thread as a data race (swiftlang/swift#57803), in
      // this package's tests and it would in its users'.
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation {
          (continuation: CheckedContinuation<Value, any Error>) in
          onCompletion { result in
            switch result {
            case .success(let value): continuation.resume(returning: value)
            case .error(let error): continuation.resume(throwing: error)
            case .cancelled: continuation.resume(throwing: CancellationError())
            }
          }
        }
      } onCancel: {
        self.cancel()
      }
    }
  }
}
