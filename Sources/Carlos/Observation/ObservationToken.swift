import Synchronization

/// Keeps an observation alive: cancel it, or let it go, to stop the callbacks.
///
/// ```swift
/// var token: ObservationToken? = memory.observe { print($0) }
/// token = nil   // no more callbacks
/// ```
public final class ObservationToken: Sendable {
  private let onCancel: Lock<(@Sendable () -> Void)?>

  init(onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = Lock(onCancel)
  }

  /// Ends the observation: no event is handed to the callback once this returns,
  /// except the batch being delivered at that moment, if any.
  public func cancel() {
    let cancel = onCancel.withLock { $0.take() }
    cancel?()
  }

  deinit {
    cancel()
  }
}
