import Synchronization

/// A mutual-exclusion lock around a value, for PiedPiper and Carlos internals.
///
/// It is `Synchronization.Mutex` plus an atomic flag that every critical section
/// acquires on entry and releases on exit. On Linux, `Mutex` hands the lock over
/// through futex calls that ThreadSanitizer cannot see, so TSan reports races
/// between successive holders of the same lock; the flag gives TSan the
/// happens-before edge. On x86-64 and arm64 the flag costs a plain load and store.
@usableFromInline
package struct Lock<Value: ~Copyable>: ~Copyable, Sendable {
  @usableFromInline let mutex: Mutex<Value>
  @usableFromInline let handoff: Atomic<Bool>

  /// Creates a lock that protects `value`.
  @inlinable
  package init(_ value: consuming sending Value) {
    mutex = Mutex(value)
    handoff = Atomic(false)
  }

  /// Runs `body` with exclusive access to the protected value.
  @inlinable
  package borrowing func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
      _ = handoff.load(ordering: .acquiring)
      defer { handoff.store(false, ordering: .releasing) }
      return try body(&value)
    }
  }

  /// Runs `body` with exclusive access to the protected value if no other thread
  /// holds the lock; returns nil at once, without running `body`, if one does.
  @inlinable
  package borrowing func withLockIfAvailable<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result? {
    try mutex.withLockIfAvailable { (value: inout sending Value) throws(E) -> sending Result in
      _ = handoff.load(ordering: .acquiring)
      defer { handoff.store(false, ordering: .releasing) }
      return try body(&value)
    }
  }

  /// Runs `body` with exclusive access to the protected value, like ``withLock(_:)``,
  /// but tries a few times before waiting: for locks held for a fraction of a
  /// microsecond, a short spin avoids putting the thread to sleep and waking it.
  @inlinable
  package borrowing func withLockSpinning<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    var attempt = 0
    while attempt < 24 {
      if let result = try withLockIfAvailable(body) { return result }
      attempt &+= 1
      // Back off, reading the lock's own line, before trying again.
      for _ in 0..<(attempt &* 4) { _ = handoff.load(ordering: .relaxed) }
    }
    return try withLock(body)
  }
}
