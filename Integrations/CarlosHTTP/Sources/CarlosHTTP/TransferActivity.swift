#if HTTP
import Synchronization

/// When a transfer last received something, for the idle timeout, and why it
/// was given up, if it was: the transfer touches it, the watcher reads it and
/// records the expiry. The mutex guards both.
final class TransferActivity: Sendable {
  private struct State {
    var last = ContinuousClock.now
    var expiry: HTTPFetcherError?
  }

  private let state = Mutex(State())

  /// Records that something arrived now.
  func touch() {
    let now = ContinuousClock.now
    state.withLock { $0.last = now }
  }

  /// When something last arrived (or the transfer started).
  var lastActivity: ContinuousClock.Instant {
    state.withLock { $0.last }
  }

  /// Why the transfer was given up (its timeout or deadline), or `nil`.
  var expiry: HTTPFetcherError? {
    state.withLock { $0.expiry }
  }

  /// Records that the transfer is given up for `reason`.
  func expire(_ reason: HTTPFetcherError) {
    state.withLock { $0.expiry = reason }
  }
}
#endif
