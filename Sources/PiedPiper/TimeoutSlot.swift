/// The pending future of a `timeout(after:)`: the source's result or the timer,
/// whichever takes it first, completes it. Emptied as soon as that future
/// completes, so the timer does not keep its result alive.
//
// Thread safety: `future` is guarded by the private `Lock`.
final class TimeoutSlot<Value: Sendable>: Sendable {
  private let future: Lock<Future<Value>?>

  /// Creates a slot holding `future`.
  init(_ future: Future<Value>) {
    self.future = Lock(future)
  }

  /// Removes and returns the future, if it is still there.
  func take() -> Future<Value>? {
    future.withLock { $0.take() }
  }

  /// Drops the future.
  func empty() {
    future.withLock { $0 = nil }
  }
}
