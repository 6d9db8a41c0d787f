import Carlos

/// A value behind a lock, shareable by reference across tasks.
final class Guarded<Value: Sendable>: Sendable {
  private let lock: Lock<Value>

  init(_ value: Value) {
    lock = Lock(value)
  }

  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.withLock { body(&$0) }
  }
}
