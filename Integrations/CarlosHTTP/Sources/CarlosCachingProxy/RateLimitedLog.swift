#if HTTP
import Foundation
import Synchronization

/// Writes warnings to standard error, at most one line per second for each kind
/// (its text up to the first colon); the lines left out are counted in the
/// next one written ("… and 41 more like it"), so a failing origin cannot flood
/// the log with one line per request.
final class RateLimitedLog: Sendable {
  private struct Kind {
    var lastWritten: ContinuousClock.Instant
    var suppressed: Int
  }

  private let prefix: String
  private let interval: Duration
  private let kinds = Mutex<[String: Kind]>([:])
  private let write: @Sendable (String) -> Void

  /// A log whose lines start with `prefix`, written by `write` (by default to
  /// standard error), at most one per `interval` for each kind.
  init(
    prefix: String, interval: Duration = .seconds(1),
    write: @escaping @Sendable (String) -> Void = {
      FileHandle.standardError.write(Data(($0 + "\n").utf8))
    }
  ) {
    self.prefix = prefix
    self.interval = interval
    self.write = write
  }

  /// Writes `message`, unless a line of its kind was written within the interval.
  func report(_ message: String) {
    let kind = String(message.prefix { $0 != ":" })
    let now = ContinuousClock.now
    let suppressed = kinds.withLock { kinds -> Int? in
      if var known = kinds[kind], now - known.lastWritten < interval {
        known.suppressed += 1
        kinds[kind] = known
        return nil
      }
      let suppressed = kinds[kind]?.suppressed ?? 0
      kinds[kind] = Kind(lastWritten: now, suppressed: 0)
      return suppressed
    }
    guard let suppressed else { return }
    let more = suppressed > 0 ? " (and \(suppressed) more like it since the last)" : ""
    write("\(prefix): \(message)\(more)")
  }
}
#endif
