#if Postgres
import Carlos
import Foundation

/// Keeps repeated warnings (and the notes that pair with them, such as a server
/// answering again) from flooding the log: at most one line per second for each
/// kind; the next line of a kind tells how many of that kind were left out since
/// the previous one.
final class WarningLimiter: Sendable {
  /// The limiter every type of the module uses.
  static let shared = WarningLimiter()

  /// The shortest time between two lines of one kind.
  let interval: Duration

  private struct Kind {
    var lastWritten: ContinuousClock.Instant
    var leftOut: Int
  }

  private let kinds = Locked<[String: Kind]>([:])
  private let write: @Sendable (String, CarlosLogger.Level, [String: String]) -> Void

  /// A limiter writing at most one line per `interval` for each kind, through
  /// `write` (Carlos's log by default).
  init(
    interval: Duration = .seconds(1),
    write: @escaping @Sendable (String, CarlosLogger.Level, [String: String]) -> Void = {
      CarlosLogger.log($0, $1, metadata: $2)
    }
  ) {
    self.interval = interval
    self.write = write
  }

  /// Writes `message` at `level` (a warning by default) unless a line of `kind` was
  /// written less than ``interval`` ago (then only counts it); returns whether it
  /// wrote.
  @discardableResult
  func warn(
    _ message: @autoclosure () -> String, kind: String, level: CarlosLogger.Level = .warning,
    metadata: [String: String] = [:]
  ) -> Bool {
    let now = ContinuousClock.now
    let leftOut = kinds.withLock { kinds -> Int? in
      if let last = kinds[kind], last.lastWritten.duration(to: now) < interval {
        kinds[kind]?.leftOut += 1
        return nil
      }
      let leftOut = kinds[kind]?.leftOut ?? 0
      kinds[kind] = Kind(lastWritten: now, leftOut: 0)
      return leftOut
    }
    guard let leftOut else { return false }
    let suffix = leftOut > 0 ? " (\(leftOut) more like it left out)" : ""
    write(message() + suffix, level, metadata)
    return true
  }
}
#endif
