/// A future for an async operation that starts at once on the calling thread and
/// runs there until its first suspension.
///
/// Operations started one after another from one thread therefore reach whatever
/// they call first (an actor, a connection) in the order they were started, which
/// keeps the ordering guarantees of compositions (the value set last wins) for
/// levels written with async/await. The future succeeds with the operation's value,
/// fails with its error, ends cancelled on `CancellationError`, and cancelling it
/// cancels the operation's task. (Apple systems before macOS 26 / iOS 26 have no
/// immediate tasks: there the operation starts in a new task, without that ordering.)
@inlinable
func startAsync<Value: Sendable>(
  _ operation: @escaping @Sendable () async throws -> Value
) -> Future<Value> {
  let promise = Promise<Value>()
  let body: @Sendable () async -> Void = {
    do {
      promise.succeed(try await operation())
    } catch is CancellationError {
      promise.cancel()
    } catch {
      promise.fail(error)
    }
  }
  let task: Task<Void, Never>
  if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
    task = Task.immediate(operation: body)
  } else {
    // Older Apple systems have no immediate tasks: the operation starts in a new task.
    task = Task(operation: body)
  }
  promise.onCancel { task.cancel() }
  return promise.future
}
