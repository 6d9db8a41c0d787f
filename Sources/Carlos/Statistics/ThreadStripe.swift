import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The numbers of threads that have ended, for new threads to reuse.
private let freeNumbers = Lock<[Int]>([])

/// The key under which each thread keeps its stripe number (plus one); a thread's
/// number is handed back when it ends.
private let stripeKey: pthread_key_t = {
  var key = pthread_key_t()
  let status = pthread_key_create(&key) { stored in
    guard let stored else { return }
    let number = Int(bitPattern: UInt(bitPattern: stored)) &- 1
    freeNumbers.withLock { $0.append(number) }
  }
  precondition(status == 0, "pthread_key_create failed: \(status)")
  return key
}()

/// The number the next new thread gets when no ended thread's number is free.
private let nextStripe = Atomic<Int>(0)

/// A number that tells the calling thread apart from the other running threads:
/// no two running threads have the same number, and a thread that ends gives its
/// number back, so the numbers stay below the number of threads running at once
/// (plus those that ended and were not replaced). Striped state (statistics
/// counters, read buffers) uses it to pick a stripe; numbers below a structure's
/// stripe count get a stripe of their own.
@usableFromInline
func threadStripe() -> Int {
  if let stored = pthread_getspecific(stripeKey) {
    return Int(bitPattern: UInt(bitPattern: stored)) &- 1
  }
  let reused = freeNumbers.withLock { free -> Int? in
    guard let smallest = free.indices.min(by: { free[$0] < free[$1] }) else { return nil }
    return free.remove(at: smallest)
  }
  let number = reused ?? nextStripe.wrappingAdd(1, ordering: .relaxed).oldValue
  pthread_setspecific(stripeKey, UnsafeRawPointer(bitPattern: UInt(number &+ 1)))
  return number
}

/// The thread-specific key behind ``threadStripe()``, for a structure that keeps
/// it to call ``threadStripe(key:)`` on its hot paths.
@usableFromInline
func threadStripeKey() -> pthread_key_t { stripeKey }

/// ``threadStripe()``, given ``threadStripeKey()``: once the calling thread has
/// its number, one `pthread_getspecific` and nothing else (no check that the
/// key's global was made).
@inlinable
func threadStripe(key: pthread_key_t) -> Int {
  if let stored = pthread_getspecific(key) {
    return Int(bitPattern: UInt(bitPattern: stored)) &- 1
  }
  return threadStripe()
}
