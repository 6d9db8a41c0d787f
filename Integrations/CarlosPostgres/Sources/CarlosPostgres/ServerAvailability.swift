#if Postgres
import Carlos
import Foundation
import PostgresNIO
import Synchronization

/// Whether a level's server answers: a circuit breaker. A failure that shows the
/// server unreachable (a lost or refused connection, or a timed-out operation when no
/// operation of the level succeeded for as long as that timeout: a server that is
/// only slow under load keeps answering some) marks it down; while it is down,
/// operations fail at once instead of waiting, and a probe (`SELECT 1`, through the
/// level's client or a fresh one) asks the server again and again, at most every
/// ``probeInterval``, until it answers.
final class ServerAvailability: Sendable {
  /// How often a probe asks the server while it is down.
  let probeInterval: Duration
  /// How long a probe waits for its answer.
  let probeTimeout: Duration

  private let down = Atomic<Bool>(false)
  /// When an operation last succeeded (``TrustClock`` nanoseconds).
  private let lastSuccess = Atomic<Int64>(TrustClock.nanoseconds(.now))
  private let probing = Atomic<Bool>(false)
  private let probe: @Sendable () async -> Bool
  private let name: String

  /// The availability of a server, for the level `name`; `probe` tells whether the
  /// server answers (within ``probeTimeout``).
  init(
    name: String, probeInterval: Duration = .milliseconds(250), probeTimeout: Duration,
    probe: @escaping @Sendable () async -> Bool
  ) {
    self.name = name
    self.probeInterval = probeInterval
    self.probeTimeout = probeTimeout
    self.probe = probe
  }

  /// Whether the server is known to be unreachable now.
  var isDown: Bool { down.load(ordering: .acquiring) }

  /// Notes that an operation succeeded.
  func succeeded() {
    lastSuccess.store(TrustClock.nanoseconds(.now), ordering: .relaxed)
  }

  /// Notes that an operation failed with `error`: the server is marked down when the
  /// error shows it unreachable, or when the operation timed out after `timeout` and
  /// nothing succeeded meanwhile.
  func failed(_ error: any Error) {
    if Self.showsUnreachable(error) {
      markDown(String(reflecting: error))
    } else if case .timedOut(_, let timeout)? = error as? PostgresCacheLevelError {
      let quiet = TrustClock.nanoseconds(.now) - lastSuccess.load(ordering: .relaxed)
      if quiet >= TrustClock.nanoseconds(TrustClock.origin + timeout) {
        markDown(String(describing: error))
      }
    }
  }

  private func markDown(_ reason: String) {
    if !down.exchange(true, ordering: .acquiringAndReleasing) {
      WarningLimiter.shared.warn(
        "PostgreSQL is unreachable (\(reason)); operations fail at once until a probe reaches it",
        kind: "server unreachable", metadata: ["level": name])
    }
    startProbing()
  }

  /// Probes until the server answers, then marks it up.
  private func startProbing() {
    guard !probing.exchange(true, ordering: .acquiringAndReleasing) else { return }
    Task.detached { [self] in
      while true {
        let start = ContinuousClock.now
        if await probe() {
          succeeded()
          probing.store(false, ordering: .releasing)
          if down.exchange(false, ordering: .acquiringAndReleasing) {
            WarningLimiter.shared.warn(
              "PostgreSQL answers again", kind: "server answers again", level: .info,
              metadata: ["level": name])
          }
          return
        }
        let spent = start.duration(to: .now)
        if spent < probeInterval { try? await Task.sleep(for: probeInterval - spent) }
      }
    }
  }

  /// A probe through `client`: whether `SELECT 1` succeeds within `timeout` (in the
  /// pool's queue while it reconnects, so it succeeds as soon as the pool has a
  /// connection again).
  static func probe(_ client: PostgresClient, timeout: Duration) async -> Bool {
    do {
      try await withDeadline("probe", timeout: timeout) {
        _ = try await client.query("SELECT 1").collect()
      }
      return true
    } catch {
      return false
    }
  }

  /// Whether `error` shows that the server cannot be reached (rather than a
  /// statement that failed on a server that answers).
  static func showsUnreachable(_ error: any Error) -> Bool {
    if let error = error as? PostgresCacheLevelError {
      if case .unavailable = error { return true }
      return false
    }
    if let error = error as? PSQLError {
      switch error.code {
      case .clientClosedConnection, .serverClosedConnection, .connectionError, .uncleanShutdown,
        .poolClosed:
        return true
      case .server:
        // Connection exceptions (08) and operator intervention: shutdown, crash, not
        // yet accepting connections (57P01-57P03).
        let state = error.serverInfo?[.sqlState] ?? ""
        return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
      default:
        return false
      }
    }
    // postgres-nio's pool reports a failed connection attempt or its own open
    // circuit breaker with errors of a module it does not export.
    let type = String(reflecting: Swift.type(of: error))
    return ["ConnectionPoolError", "NIOConnectionError", "IOError", "ChannelError"].contains {
      type.hasSuffix($0)
    }
  }
}
#endif
