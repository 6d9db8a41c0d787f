#if Postgres
import Carlos
import Synchronization
import Testing

@testable import CarlosPostgres

@Suite("WarningLimiter")
struct WarningLimiterTests {
  /// The lines a limiter wrote.
  final class Lines: Sendable {
    private let lines = Mutex<[(String, CarlosLogger.Level)]>([])
    func append(_ line: String, _ level: CarlosLogger.Level) {
      lines.withLock { $0.append((line, level)) }
    }
    var all: [(String, CarlosLogger.Level)] { lines.withLock { $0 } }
  }

  @Test(
    "At most one line per interval for each kind, at its level; the next line of a kind counts those left out"
  )
  func oneLinePerKindPerInterval() async throws {
    let lines = Lines()
    let limiter = WarningLimiter(interval: .milliseconds(500)) { message, level, _ in
      lines.append(message, level)
    }
    #expect(limiter.warn("unreachable", kind: "down"))
    #expect(!limiter.warn("unreachable", kind: "down"))
    #expect(!limiter.warn("unreachable", kind: "down"))
    #expect(limiter.warn("answers again", kind: "up", level: .info))
    #expect(!limiter.warn("answers again", kind: "up", level: .info))
    try await Task.sleep(for: .milliseconds(600))
    #expect(limiter.warn("unreachable", kind: "down"))
    #expect(limiter.warn("answers again", kind: "up", level: .info))
    let written = lines.all
    #expect(
      written.map(\.0) == [
        "unreachable", "answers again", "unreachable (2 more like it left out)",
        "answers again (1 more like it left out)",
      ])
    #expect(written.map(\.1) == [.warning, .info, .warning, .info])
  }
}
#endif
