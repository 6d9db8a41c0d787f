extension Future {
  /// Waits for the outcome of a future that other code may share: returns the
  /// value, throws the failure's error, or throws `CancellationError` when the
  /// future was cancelled.
  ///
  /// Unlike ``value``, cancelling the awaiting task does not cancel the future:
  /// the task stops waiting at once (with `CancellationError`) and the future,
  /// and the work behind it, carry on for everyone else who waits for it.
  @inlinable
  public var sharedValue: Value {
    get async throws {
      if let result { return try result.get() }
      let wait = SharedWait<Value>()
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation {
          (continuation: CheckedContinuation<Value, any Error>) in
          guard wait.install(continuation) else {
            continuation.resume(throwing: CancellationError())
            return
          }
          onCompletion { wait.resume(with: $0) }
        }
      } onCancel: {
        wait.resume(with: .cancelled)
      }
    }
  }
}

/// One task waiting through ``Future/sharedValue``: the first of the future's
/// outcome and the task's cancellation resumes it, exactly once.
//
// Thread safety: `state` is guarded by the private `Lock`.
@usableFromInline
final class SharedWait<Value: Sendable>: Sendable {
  @usableFromInline
  enum State {
    case waiting
    case installed(CheckedContinuation<Value, any Error>)
    case resumed
  }

  @usableFromInline
  let state = Lock(State.waiting)

  @usableFromInline
  init() {}

  /// Keeps `continuation` for the outcome; `false` when the task was cancelled first.
  @usableFromInline
  func install(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
    state.withLock { state in
      guard case .waiting = state else { return false }
      state = .installed(continuation)
      return true
    }
  }

  /// Resumes the waiting task with `result` (a cancellation throws
  /// `CancellationError`), unless it was resumed already.
  @usableFromInline
  func resume(with result: FutureResult<Value>) {
    let continuation: CheckedContinuation<Value, any Error>? = state.withLock { state in
      switch state {
      case .installed(let continuation):
        state = .resumed
        return continuation
      case .waiting:
        state = .resumed
        return nil
      case .resumed:
        return nil
      }
    }
    guard let continuation else { return }
    switch result {
    case .success(let value): continuation.resume(returning: value)
    case .error(let error): continuation.resume(throwing: error)
    case .cancelled: continuation.resume(throwing: CancellationError())
    }
  }
}
