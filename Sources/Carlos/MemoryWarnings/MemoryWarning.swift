import Foundation

extension Notification.Name {
  /// The notification that tells cache levels memory is short.
  ///
  /// Levels that called ``CacheLevel/listenToMemoryWarnings(notificationCenter:)``
  /// get `onMemoryWarning()` each time it is posted. Post it with
  /// ``MemoryWarning/post(to:)``, or let a ``MemoryPressureMonitor`` post it.
  public static let carlosMemoryWarning = Notification.Name("Carlos.MemoryWarning")
}

/// Memory warnings: on Linux there is no system-wide memory warning, so the
/// application (or a ``MemoryPressureMonitor``) posts one.
public enum MemoryWarning {
  /// Posts a memory warning: every level listening on `center` gets
  /// `onMemoryWarning()`, on the calling thread, before this returns.
  public static func post(to center: NotificationCenter = .default) {
    center.post(name: .carlosMemoryWarning, object: nil)
  }
}
