import Dispatch
import Foundation

/// Where Carlos reports what it does: standard error by default; replace ``output``
/// (or set ``recordOutput``) to route messages into your own logging system.
///
/// Named so that it never clashes with swift-log's `Logger` in a file that imports
/// both (every Vapor file does); the Carlos 0.x name `Logger` is available in the
/// opt-in `CarlosCompatibility` module.
public enum CarlosLogger {
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

  /// One message with its severity and context (the level and key it concerns,
  /// when it concerns one), for ``recordOutput``.
  public struct Record: Sendable, Hashable {
    /// The message.
    public var message: String
    /// Its severity.
    public var level: Level
    /// What it concerns, such as `"level"` (the cache level) and `"key"`; empty when nothing.
    public var metadata: [String: String]

    /// Creates a record.
    public init(message: String, level: Level, metadata: [String: String] = [:]) {
      self.message = message
      self.level = level
      self.metadata = metadata
    }
  }

  /// Where messages go: `output` always; `records` instead when set.
  private struct Sinks {
    var output: @Sendable (String, Level) -> Void
    var records: (@Sendable (Record) -> Void)?
    var showsKeys = false
  }

  private static let printQueue = DispatchQueue(label: "Carlos.Log")
  private static let sinks = Lock(Sinks(output: CarlosLogger.printWithoutBlocking, records: nil))

  /// Writes to standard error on a background queue, so callers never wait for the
  /// terminal and a program's standard output carries only what the program prints.
  private static let printWithoutBlocking: @Sendable (String, Level) -> Void = { message, level in
    printQueue.async {
      FileHandle.standardError.write(Data("[Carlos] [\(level)] \(message)\n".utf8))
    }
  }

  /// The function that receives every message. By default it writes to standard
  /// error, without blocking the caller. Safe to replace from any thread.
  /// Messages go here unless ``recordOutput`` is set.
  public static var output: @Sendable (String, Level) -> Void {
    get { sinks.withLock { $0.output } }
    set { sinks.withLock { $0.output = newValue } }
  }

  /// When set, receives every message with its metadata instead of ``output``
  /// (for logging systems that keep structured metadata); `nil` by default.
  public static var recordOutput: (@Sendable (Record) -> Void)? {
    get { sinks.withLock { $0.records } }
    set { sinks.withLock { $0.records = newValue } }
  }

  /// Whether messages show cache keys as they are. `false` by default: keys are
  /// often e-mail addresses or user ids, so a message shows a short digest of the key
  /// instead (see ``key(_:)``). Turn it on to debug. Safe to change from any thread.
  public static var showsKeys: Bool {
    get { sinks.withLock { $0.showsKeys } }
    set { sinks.withLock { $0.showsKeys = newValue } }
  }

  /// `key` as messages show it: `sha256:` and the first 12 hex digits of the SHA-256
  /// of its description, or the description itself when ``showsKeys`` is on. The
  /// same key always gives the same digest, so messages about one key can be matched.
  public static func key(_ key: some Any) -> String {
    let description = String(describing: key)
    if showsKeys { return description }
    return "sha256:" + DiskCacheHooks.hex(SHA256.digest(Array(description.utf8)).prefix(6))
  }

  /// Sends `message` at `level` to ``recordOutput`` when set, otherwise to ``output``.
  public static func log(_ message: @autoclosure () -> String, _ level: Level = .debug) {
    log(message(), level, metadata: [:])
  }

  /// Sends `message` at `level`, with `metadata` (such as the cache level and key it
  /// concerns), to ``recordOutput`` when set, otherwise to ``output`` (without metadata).
  public static func log(
    _ message: @autoclosure () -> String, _ level: Level = .debug, metadata: [String: String]
  ) {
    let (output, records) = sinks.withLock { ($0.output, $0.records) }
    if let records {
      records(Record(message: message(), level: level, metadata: metadata))
    } else {
      output(message(), level)
    }
  }
}
