#if Postgres
import Synchronization

/// A `Mutex` around a value, plus an atomic flag every critical section acquires on
/// entry and releases on exit.
///
/// On Linux, `Mutex` hands the lock over through futex calls ThreadSanitizer cannot
/// see, so it reports races between successive holders of one lock; the flag gives
/// it the happens-before edge (the root package's `Lock` does the same).
struct Locked<Value: ~Copyable>: ~Copyable, Sendable {
  private let mutex: Mutex<Value>
  private let handoff = Atomic<Bool>(false)

  /// Creates a lock that protects `value`.
  init(_ value: consuming sending Value) {
    mutex = Mutex(value)
  }

  /// Runs `body` with exclusive access to the protected value.
  borrowing func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
      _ = handoff.load(ordering: .acquiring)
      defer { handoff.store(false, ordering: .releasing) }
      return try body(&value)
    }
  }
}
#endif
