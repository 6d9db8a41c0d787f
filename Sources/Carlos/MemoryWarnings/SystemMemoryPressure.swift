#if canImport(Darwin)
import Dispatch
import Foundation

/// The system's memory pressure on Apple platforms, for
/// ``CacheLevel/listenToMemoryWarnings(notificationCenter:)``: a dispatch
/// memory-pressure source (warning and critical levels), and, where UIKit exists,
/// its memory-warning notification.
///
/// Compiled only on Apple platforms. This project's CI builds and tests on Linux
/// only, so this file is reviewed by reading and is untested.
enum SystemMemoryPressure {
  /// UIKit's `UIApplication.didReceiveMemoryWarningNotification`, by its name, so
  /// that this file needs neither UIKit nor the main actor.
  static let uiKitMemoryWarning = Notification.Name(
    "UIApplicationDidReceiveMemoryWarningNotification")

  /// Calls `handler` each time the system reports memory pressure, until the
  /// returned watch is stopped.
  static func watch(_ handler: @escaping @Sendable () -> Void) -> Watch {
    let source = DispatchSource.makeMemoryPressureSource(
      eventMask: [.warning, .critical], queue: .global(qos: .utility))
    source.setEventHandler { handler() }
    source.activate()
    #if canImport(UIKit)
    let observer = NotificationCenter.default.addObserver(
      forName: uiKitMemoryWarning, object: nil, queue: nil
    ) { _ in handler() }
    return Watch(source: source, observer: observer)
    #else
    return Watch(source: source, observer: nil)
    #endif
  }

  /// A running watch of the system's memory pressure.
  ///
  /// `@unchecked Sendable`: its properties never change after `init`, and a
  /// dispatch source and a notification observer may be cancelled or removed from
  /// any thread.
  final class Watch: @unchecked Sendable {
    private let source: any DispatchSourceMemoryPressure
    private let observer: (any NSObjectProtocol)?

    init(source: any DispatchSourceMemoryPressure, observer: (any NSObjectProtocol)?) {
      self.source = source
      self.observer = observer
    }

    /// Stops the watch: `handler` is not called again.
    func stop() {
      source.cancel()
      if let observer { NotificationCenter.default.removeObserver(observer) }
    }
  }
}
#endif
