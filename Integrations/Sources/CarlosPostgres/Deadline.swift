import Carlos
import PostgresNIO

/// Runs `operation` in a new task and completes the returned future with its
/// outcome, or fails it with ``PostgresCacheLevelError/timedOut(operation:after:)``
/// once `timeout` has passed, cancelling the task. The future never waits for a
/// task that does not react to cancellation, so nothing hangs on a dead server.
/// Cancelling the future cancels the task.
func deadlineFuture<T: Sendable>(
  _ name: String, timeout: Duration,
  _ operation: @escaping @Sendable () async throws -> T
) -> Future<T> {
  let promise = Promise<T>()
  let work = Task {
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
  // An event-loop timer, not a sleeping task: cheaper to arm and to cancel.
  let timer = PostgresClient.defaultEventLoopGroup.any().scheduleTask(
    in: .nanoseconds(nanoseconds(of: timeout))
  ) {
    promise.fail(PostgresCacheLevelError.timedOut(operation: name, after: timeout))
    work.cancel()
  }
  promise.future.onCompletion { result in
    timer.cancel()
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

/// The whole nanoseconds of `duration` (at least 1, at most `Int64.max`).
func nanoseconds(of duration: Duration) -> Int64 {
  let (seconds, attoseconds) = duration.components
  let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
  if overflow { return seconds > 0 ? .max : 1 }
  return max(1, whole.addingClamped(attoseconds / 1_000_000_000))
}
