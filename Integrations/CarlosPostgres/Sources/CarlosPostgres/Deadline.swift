#if Postgres
import Carlos

/// Runs `operation` in a new task and completes the returned future with its
/// outcome, or fails it with ``PostgresCacheLevelError/timedOut(operation:after:)``
/// once `timeout` has passed (within a few milliseconds), cancelling the task. The future never waits for a
/// task that does not react to cancellation, so nothing hangs on a dead server.
/// Cancelling the future cancels the task.
func deadlineFuture<T: Sendable>(
  _ name: String, timeout: Duration,
  _ operation: @escaping @Sendable () async throws -> T
) -> Future<T> {
  let promise = Promise<T>()
  // Started on the caller's thread up to its first suspension (sending the query),
  // which saves a hop to another thread on every operation.
  let work = Task.immediate {
    do {
      promise.succeed(try await operation())
    } catch is CancellationError {
      promise.fail(PostgresCacheLevelError.timedOut(operation: name, after: timeout))
    } catch let error as PostgresCacheLevelError {
      promise.fail(error)
    } catch let error as FetchError {
      promise.fail(error)
    } catch {
      promise.fail(
        PostgresCacheLevelError.queryFailed(operation: name, reason: String(reflecting: error)))
    }
  }
  let timer = DeadlineWatcher.shared.arm(timeout) {
    promise.fail(PostgresCacheLevelError.timedOut(operation: name, after: timeout))
    work.cancel()
  }
  promise.future.onCompletion { result in
    DeadlineWatcher.shared.disarm(timer)
    if case .cancelled = result { work.cancel() }
  }
  return promise.future
}

/// Runs `operation`, throwing ``PostgresCacheLevelError/timedOut(operation:after:)``
/// once `timeout` has passed without waiting for the operation to notice.
func withDeadline<T: Sendable>(
  _ name: String, timeout: Duration,
  _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await deadlineFuture(name, timeout: timeout, operation).value
}
#endif
