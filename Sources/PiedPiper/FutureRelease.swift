#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Frees the callbacks of futures that die pending, on a constant depth of stack.
///
/// A pending future holds its callbacks, a link's callback holds the future it
/// completes, and so on down a chain: freeing the first future of a chain that never
/// completed used to free the next from its deinit, and the next from that one's,
/// one nested deinit per link, until a long chain overflowed the stack. Now a dying
/// future moves its callbacks into its thread's queue, and the first one to die on a
/// thread frees the queue in a loop; futures dying in that loop only add to it.
enum FutureRelease {
  /// The callbacks still to free on one thread.
  final class Queue {
    var items: [Any] = []
  }

  /// The thread-local slot that points at the thread's queue while its loop runs.
  static let key: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "PiedPiper cannot create a thread-local key (error \(status))")
    return key
  }()

  /// Adds a copy of `callbacks` to the thread's queue; the dying future then drops
  /// its own, so the queue holds the only one. Returns whether this call started the
  /// queue, in which case the caller frees it with ``drain()``.
  static func enqueue(_ callbacks: Any) -> Bool {
    if let running = pthread_getspecific(key) {
      Unmanaged<Queue>.fromOpaque(running).takeUnretainedValue().items.append(callbacks)
      return false
    }
    let queue = Queue()
    queue.items.append(callbacks)
    pthread_setspecific(key, Unmanaged.passRetained(queue).toOpaque())
    return true
  }

  /// Frees the thread's queue, and whatever futures dying meanwhile add to it.
  static func drain() {
    guard let running = pthread_getspecific(key) else { return }
    let queue = Unmanaged<Queue>.fromOpaque(running)
    // Each item is freed at the end of its iteration, after `popLast` has returned:
    // futures dying then append to the queue, and the loop frees their callbacks next.
    while let item = queue.takeUnretainedValue().items.popLast() { _ = item }
    pthread_setspecific(key, nil)
    queue.release()
  }
}
