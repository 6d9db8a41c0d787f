import Dispatch

/// Where Carlos reports what it does: replace ``output`` to route messages
/// into your own logging system.
public enum Logger {
  /// The severity of a message.
  public enum Level: Int, Sendable, Comparable, CustomStringConvertible {
    case debug, info, warning, error

    /// Orders levels by severity, `debug` lowest.
    public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

    /// A human-readable description.
    public var description: String {
      switch self {
      case .debug: return "debug"
      case .info: return "info"
      case .warning: return "warning"
      case .error: return "error"
      }
    }
  }

  private static let printQueue = DispatchQueue(label: "Carlos.Logger")
  private static let sink = Lock<@Sendable (String, Level) -> Void>(Logger.printWithoutBlocking)

  /// Prints on a background queue so callers never wait for the terminal.
  private static let printWithoutBlocking: @Sendable (String, Level) -> Void = { message, level in
    printQueue.async { print("[Carlos] [\(level)] \(message)") }
  }

  /// The function that receives every message. By default it prints, without
  /// blocking the caller. Safe to replace from any thread.
  public static var output: @Sendable (String, Level) -> Void {
    get { sink.withLock { $0 } }
    set { sink.withLock { $0 = newValue } }
  }

  /// Sends `message` at `level` to ``output``.
  public static func log(_ message: @autoclosure () -> String, _ level: Level = .debug) {
    output(message(), level)
  }
}
