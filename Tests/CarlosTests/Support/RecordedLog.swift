import Carlos
import Testing

/// Carlos's log messages during the test run, recorded instead of printed: a test that
/// plants a damaged file or a bad setting on purpose expects the warning it causes, and
/// a successful run prints no warning or error line.
enum RecordedLog {
  /// The newest messages, at most `limit` of them.
  private static let messages = Lock<[String]>([])
  private static let limit = 1_000

  /// Routes ``CarlosLogger`` into ``messages`` for the rest of the process, once.
  private static let installed: Void = {
    CarlosLogger.output = { message, level in
      messages.withLock { messages in
        if messages.count == limit { messages.removeFirst(limit / 2) }
        messages.append("[\(level)] \(message)")
      }
    }
  }()

  /// Starts recording, if it has not started yet.
  static func start() { installed }

  /// The messages recorded so far that contain `text`.
  static func messages(containing text: String) -> [String] {
    messages.withLock { $0.filter { $0.contains(text) } }
  }
}

/// A suite trait: the suite's tests run with Carlos's log recorded (``RecordedLog``).
struct RecordingLog: SuiteTrait, TestTrait, TestScoping {
  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    RecordedLog.start()
    try await function()
  }
}

extension Trait where Self == RecordingLog {
  /// Records Carlos's log instead of printing it, for tests that cause warnings on purpose.
  static var recordingLog: Self { RecordingLog() }
}
