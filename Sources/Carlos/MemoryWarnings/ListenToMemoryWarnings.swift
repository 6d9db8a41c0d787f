import Foundation

extension CacheLevel {
  /// Makes this level get `onMemoryWarning()` every time a memory warning
  /// (`Notification.Name.carlosMemoryWarning`) is posted on
  /// `notificationCenter`, until the returned token is passed to
  /// ``unsubscribeToMemoryWarnings(_:)``.
  ///
  /// A composed level passes the warning on to every level inside it. The
  /// level runs `onMemoryWarning()` on the thread that posts the warning.
  ///
  /// On Linux there is no system-wide memory warning: the application, or a
  /// ``MemoryPressureMonitor``, posts one. On Apple platforms the level also hears
  /// the system's memory pressure (a dispatch memory-pressure source, and UIKit's
  /// memory-warning notification where UIKit exists); that code is not built by
  /// this project's CI, which runs on Linux only.
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
    #if canImport(Darwin)
    let system = SystemMemoryPressure.watch { self.onMemoryWarning() }
    return MemoryWarningToken(
      center: notificationCenter, observer: observer, stopSystem: { system.stop() })
    #else
    return MemoryWarningToken(center: notificationCenter, observer: observer)
    #endif
  }
}

/// Stops the level that returned `token` from
/// ``CacheLevel/listenToMemoryWarnings(notificationCenter:)`` listening to
/// memory warnings. Unsubscribing twice does nothing.
public func unsubscribeToMemoryWarnings(_ token: MemoryWarningToken) {
  token.unsubscribe()
}
