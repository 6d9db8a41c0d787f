import Foundation

extension CacheLevel {
  /// Makes this level get `onMemoryWarning()` every time a memory warning
  /// (`Notification.Name.carlosMemoryWarning`) is posted on
  /// `notificationCenter`, until the returned token is passed to
  /// ``unsubscribeToMemoryWarnings(_:)``.
  ///
  /// A composed level passes the warning on to every level inside it. The
  /// level runs `onMemoryWarning()` on the thread that posts the warning.
  public func listenToMemoryWarnings(
    notificationCenter: NotificationCenter = .default
  ) -> MemoryWarningToken {
    let observer = notificationCenter.addObserver(
      forName: .carlosMemoryWarning,
      object: nil,
      queue: nil
    ) { _ in
      self.onMemoryWarning()
    }
    return MemoryWarningToken(center: notificationCenter, observer: observer)
  }
}

/// Stops the level that returned `token` from
/// ``CacheLevel/listenToMemoryWarnings(notificationCenter:)`` listening to
/// memory warnings. Unsubscribing twice does nothing.
public func unsubscribeToMemoryWarnings(_ token: MemoryWarningToken) {
  token.unsubscribe()
}
