import Synchronization

/// A `Mutex` whose hand-overs ThreadSanitizer can see.
///
/// On Linux, `Synchronization.Mutex` waits in the kernel (priority-inheriting
/// futexes) when it is contended, so ThreadSanitizer never sees the lock pass
/// from one thread to the next and reports races between critical sections
/// that cannot overlap. Each critical section here also reads an atomic flag
/// with acquiring order when it starts and writes it with releasing order when
/// it ends, which tells ThreadSanitizer what the lock guarantees. On x86 and
/// ARM these are plain loads and stores, so the lock costs the same as `Mutex`.
///
/// Use it wherever `Mutex` would be used; the API is the same.
@usableFromInline
package struct Lock<Value: ~Copyable>: ~Copyable, Sendable {
  @usableFromInline let mutex: Mutex<Value>
  @usableFromInline let handOver = Atomic<Bool>(false)

  /// Creates a lock protecting `initialValue`.
  @inlinable
  package init(_ initialValue: consuming sending Value) {
    mutex = Mutex(initialValue)
  }

  /// Runs `body` with exclusive access to the value, like `Mutex.withLock`.
  @inlinable
  package borrowing func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
      _ = handOver.load(ordering: .acquiring)
      defer { handOver.store(true, ordering: .releasing) }
      return try body(&value)
    }
  }
}
