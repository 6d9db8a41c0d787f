import Synchronization

/// When a transfer last received something, for the idle timeout: the transfer
/// touches it, the watchdog reads it. The mutex guards the one instant.
final class TransferActivity: Sendable {
  private let last = Mutex(ContinuousClock.now)

  /// Records that something arrived now.
  func touch() {
    let now = ContinuousClock.now
    last.withLock { $0 = now }
  }

  /// When something last arrived (or the transfer started).
  var lastActivity: ContinuousClock.Instant {
    last.withLock { $0 }
  }
}
