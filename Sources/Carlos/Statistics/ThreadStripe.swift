import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The key under which each thread keeps its stripe number.
private let stripeKey: pthread_key_t = {
  var key = pthread_key_t()
  let status = pthread_key_create(&key, nil)
  precondition(status == 0, "pthread_key_create failed: \(status)")
  return key
}()

/// The number the next new thread gets.
private let nextStripe = Atomic<Int>(0)

/// A number that tells the calling thread apart from the other running threads:
/// threads are numbered in the order they first ask, so the first threads to use
/// striped state (statistics counters, read buffers) all get stripes of their own.
/// Callers reduce it modulo their stripe count.
@usableFromInline
func threadStripe() -> Int {
  if let stored = pthread_getspecific(stripeKey) {
    return Int(bitPattern: UInt(bitPattern: stored)) &- 1
  }
  let number = nextStripe.wrappingAdd(1, ordering: .relaxed).oldValue
  pthread_setspecific(stripeKey, UnsafeRawPointer(bitPattern: UInt(number &+ 1)))
  return number
}
