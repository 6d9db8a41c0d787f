#if Postgres
import Foundation
import PostgresNIO

/// A `PostgresClient` run by its owner (a level or a listener made from a
/// configuration), replaced by a fresh one when the server answers again after an
/// outage.
///
/// A postgres-nio pool whose connection attempts kept failing waits longer and
/// longer between attempts (100 ms × 1.25ⁿ, up to a minute; about 10 s after 45 s of
/// failures) and queues or rejects requests meanwhile, so after a long outage it
/// reaches a server that is back only seconds later. A new client's pool has no such
/// history: ``renew(timeout:grace:)`` connects one and, once it answers, makes it the
/// current client.
final class RenewableClient: Sendable {
  /// The configuration of every client made: the one given, with a quiet pool
  /// (``PostgresNIO/PostgresClient/Configuration/quietPool``).
  let configuration: PostgresClient.Configuration

  private let state = Locked<State>(State())

  private struct State {
    var current: PostgresClient?
    /// The task running each client not yet closed, by client.
    var runs: [ObjectIdentifier: Task<Void, Never>] = [:]
    var closed = false
  }

  /// A renewable client of `configuration`; nothing is started until it is used.
  init(configuration: PostgresClient.Configuration) {
    self.configuration = configuration.quietPool
  }

  /// The client to use now (started on first use).
  var current: PostgresClient {
    let (client, created) = state.withLock { state -> (PostgresClient, Bool) in
      if let current = state.current { return (current, false) }
      let client = PostgresClient(configuration: configuration)
      state.current = client
      return (client, true)
    }
    if created { start(client) }
    return client
  }

  /// Connects a new client and, when `SELECT 1` succeeds through it within `timeout`,
  /// makes it the current one and closes the previous one `grace` later (so that the
  /// operations started on it end first); whether it did.
  func renew(timeout: Duration, grace: Duration) async -> Bool {
    let candidate = PostgresClient(configuration: configuration)
    guard start(candidate) else { return false }
    do {
      try await withDeadline("probe", timeout: timeout) {
        _ = try await candidate.query("SELECT 1").collect()
      }
    } catch {
      stop(candidate)
      return false
    }
    let installed = state.withLock { state -> (Bool, PostgresClient?) in
      guard !state.closed else { return (false, nil) }
      defer { state.current = candidate }
      return (true, state.current)
    }
    guard installed.0 else {
      stop(candidate)
      return false
    }
    if let previous = installed.1 {
      Task.detached { [self] in
        try? await Task.sleep(for: grace)
        stop(previous)
      }
    }
    return true
  }

  /// Closes every client; the current one fails every operation from then on.
  func close() {
    let runs = state.withLock { state -> [Task<Void, Never>] in
      state.closed = true
      defer { state.runs = [:] }
      return Array(state.runs.values)
    }
    for run in runs { run.cancel() }
  }

  /// Runs `client` until it is stopped (detached: it must not end with the graceful
  /// shutdown of the caller's service group); false once closed.
  @discardableResult
  private func start(_ client: PostgresClient) -> Bool {
    state.withLock { state in
      guard !state.closed else { return false }
      state.runs[ObjectIdentifier(client)] = Task.detached { await client.run() }
      return true
    }
  }

  /// Closes `client` (cancelling its run).
  private func stop(_ client: PostgresClient) {
    state.withLock { $0.runs.removeValue(forKey: ObjectIdentifier(client)) }?.cancel()
  }
}
#endif
