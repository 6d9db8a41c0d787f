import Foundation

/// Keeps a level listening to memory warnings until it is passed to
/// ``unsubscribeToMemoryWarnings(_:)``.
///
/// Dropping the token does not end the subscription, just as it did not with
/// the original observer tokens: unsubscribe explicitly.
public final class MemoryWarningToken: Sendable {
  /// The center the level listens on.
  private let center: NotificationCenter
  /// The center's observer; `nil` once unsubscribed.
  private let observer: Lock<(any NSObjectProtocol)?>
  /// Stops the watch of the system's memory pressure (Apple platforms only).
  private let stopSystem: @Sendable () -> Void

  init(
    center: NotificationCenter, observer: sending any NSObjectProtocol,
    stopSystem: @escaping @Sendable () -> Void = {}
  ) {
    self.center = center
    self.observer = Lock(observer)
    self.stopSystem = stopSystem
  }

  /// Whether the level still listens.
  public var isSubscribed: Bool {
    observer.withLock { $0 != nil }
  }

  /// Stops the level listening. Safe to call more than once.
  func unsubscribe() {
    let removed: (any NSObjectProtocol)? = observer.withLock { observer in
      let removed = observer
      observer = nil
      return removed
    }
    if let removed {
      center.removeObserver(removed)
      stopSystem()
    }
  }
}
