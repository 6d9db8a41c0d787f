#if Postgres
import Carlos
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Listens for the ``InvalidationNotice``s that ``PostgresCacheLevel``s send, on one
/// connection of a `PostgresClient` held for as long as it listens, and hands them
/// to the ``CoherentCache``s of this process.
///
/// Run it in a long-running task, like the client: `Task { await listener.run() }`,
/// or as a `Service` of a `ServiceGroup`, which stops it at graceful shutdown.
///
/// - Heartbeat: every quarter of ``stalenessBound`` it sends a notice of its own
///   through the server and records when it sent it. PostgreSQL delivers notices in
///   the order their transactions committed, so once a heartbeat sent at time *t* is
///   back, every notice of a write acknowledged before *t* has been handed out:
///   ``isFresh(at:)`` is true while the last heartbeat back was sent within
///   ``stalenessBound``. A coherent cache serves its upper level only then, so no
///   instance serves a value longer than ``stalenessBound`` after a write that
///   replaced it was acknowledged, whatever happens to notices on the way.
/// - Lost or stalled connection: when its connection fails, or no heartbeat has come
///   back for twice ``stalenessBound`` (a server or network that stopped answering
///   without closing the connection), it closes the connection, tells every
///   subscriber that it is down, retries every `reconnectDelay`, and once it listens
///   again (its first heartbeat is back) tells them it is up; subscribers then start
///   from empty upper levels, since notices sent while it was down are lost.
public final class PostgresInvalidationListener: Service {
  /// What a subscriber hears.
  public enum Event: Sendable, Equatable {
    /// The listener listens (again): notices from now on will arrive.
    case listening
    /// The listener lost its connection: notices may be missed until `listening`.
    case stopped
    /// A level changed a key or a whole namespace.
    case notice(InvalidationNotice)
  }

  /// The client whose connection the listener holds (or will hold): the one it was
  /// given, or the latest one it made from its configuration (see
  /// ``init(configuration:reconnectDelay:stalenessBound:)``).
  public var client: PostgresClient {
    switch source {
    case .given(let client): client
    case .owned(let owned): owned.current
    }
  }
  /// How long the listener waits before trying again after losing its connection.
  public let reconnectDelay: Duration
  /// The longest time after a write's acknowledgment during which a subscriber may
  /// still serve the value it replaced (see ``isFresh(at:)``).
  public let stalenessBound: Duration

  private let state = Locked<State>(State())
  private let source: Source

  /// Where the listener's client comes from.
  private enum Source: Sendable {
    /// The caller's client, which the caller runs.
    case given(PostgresClient)
    /// A client the listener makes anew for each connection.
    case owned(RenewableClient)
  }
  /// Until when (nanoseconds after ``TrustClock/origin``) notices are known to be
  /// up to date; 0 when not listening.
  private let freshUntil = Atomic<Int64>(0)
  /// Identifies this listener's heartbeats among the notices.
  private let heartbeatHead = "carlos-heartbeat\t\(UUID().uuidString)\t"

  private struct State {
    var listening = false
    var generation = 0
    /// The current connection's number; heartbeats of an older one are ignored.
    var session: UInt64 = 0
    var nextHeartbeat: UInt64 = 0
    /// Heartbeats sent and not yet back, by number: when each was sent.
    var heartbeatsSent: [UInt64: ContinuousClock.Instant] = [:]
    /// When the last heartbeat back (or the connection) started.
    var lastHeard = ContinuousClock.now
    var subscribers: [UUID: @Sendable (Event) -> Void] = [:]
    var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
  }

  /// Creates a listener over `client` (which must be running). Subscribers serve
  /// their upper levels only while the listener is no more than `stalenessBound`
  /// behind the server (1 second by default).
  ///
  /// After an outage it listens again once the client's pool reconnects, which
  /// postgres-nio delays more the longer the outage was (up to a minute between
  /// attempts); a listener made with
  /// ``init(configuration:reconnectDelay:stalenessBound:)`` listens again within about
  /// a second of the server's return, whatever the outage's length.
  public convenience init(
    client: PostgresClient, reconnectDelay: Duration = .milliseconds(200),
    stalenessBound: Duration = .seconds(1)
  ) {
    self.init(
      source: .given(client), reconnectDelay: reconnectDelay, stalenessBound: stalenessBound)
  }

  /// Creates a listener over a client of `configuration` that it makes and runs
  /// itself, a fresh one for each connection after a failure (so it connects as soon
  /// as the server answers, without the back-off of a pool that kept failing), and
  /// closes when ``run()`` returns. Subscribers serve their upper levels only while
  /// the listener is no more than `stalenessBound` behind the server.
  public convenience init(
    configuration: PostgresClient.Configuration, reconnectDelay: Duration = .milliseconds(200),
    stalenessBound: Duration = .seconds(1)
  ) {
    var configuration = configuration
    configuration.options.maximumConnections = 1
    self.init(
      source: .owned(RenewableClient(configuration: configuration)),
      reconnectDelay: reconnectDelay, stalenessBound: stalenessBound)
  }

  private init(source: Source, reconnectDelay: Duration, stalenessBound: Duration) {
    self.source = source
    self.reconnectDelay = reconnectDelay
    self.stalenessBound = stalenessBound
  }

  /// Whether the listener is listening now.
  public var isListening: Bool { state.withLock { $0.listening } }

  /// How many times the listener started listening (1 after the first connection).
  public var generation: Int { state.withLock { $0.generation } }

  /// Whether every notice of a write acknowledged before `now - stalenessBound` has
  /// been handed to the subscribers (false while not listening).
  public func isFresh(at now: ContinuousClock.Instant = .now) -> Bool {
    TrustClock.nanoseconds(now) < freshUntil.load(ordering: .acquiring)
  }

  /// Listens until the calling task is cancelled or its service group shuts down
  /// gracefully, reconnecting after failures. When it returns it no longer listens:
  /// the channel was unlistened and subscribers heard `stopped`.
  public func run() async {
    // Graceful shutdown cancels the loop, which ends the `LISTEN` (postgres-nio
    // sends `UNLISTEN` when the notification sequence is dropped).
    await cancelWhenGracefulShutdown { [self] in await listen() }
    if case .owned(let owned) = source { owned.close() }
  }

  private func listen() async {
    while !Task.isCancelled {
      if case .owned(let owned) = source {
        // A fresh client once the server answers: a pool that failed to connect may
        // wait seconds before its next attempt, and queues the request meanwhile.
        guard await owned.renew(timeout: max(stalenessBound * 2, .seconds(1)), grace: .zero)
        else {
          try? await Task.sleep(for: reconnectDelay)
          continue
        }
      }
      do {
        try await client.withConnection { connection in
          try await connection.listen(on: InvalidationNotice.channel) { notices in
            try await listen(to: notices, on: connection)
          }
        }
      } catch {
        if !Task.isCancelled {
          WarningLimiter.shared.warn(
            "Invalidation listener lost its connection: \(String(reflecting: error))",
            kind: "listener lost its connection",
            metadata: ["level": "PostgresInvalidationListener"])
        }
      }
      stopped()
      try? await Task.sleep(for: reconnectDelay)
    }
  }

  /// Hands out `notices` and sends heartbeats on `connection` until either fails.
  private func listen(to notices: PostgresNotificationSequence, on connection: PostgresConnection)
    async throws
  {
    let session = state.withLock { state -> UInt64 in
      state.session &+= 1
      state.heartbeatsSent = [:]
      state.lastHeard = .now
      return state.session
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { [self] in
        for try await notification in notices { receive(notification.payload, session: session) }
        throw ListenerConnectionEnded()
      }
      group.addTask { [self] in try await sendHeartbeats(on: connection, session: session) }
      defer { group.cancelAll() }
      try await group.next()
    }
  }

  /// Sends a heartbeat every quarter of the bound; throws (after closing the
  /// connection) once none has come back for twice the bound.
  private func sendHeartbeats(on connection: PostgresConnection, session: UInt64) async throws {
    let silent = Logging.Logger(
      label: "carlos.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    while true {
      let payload = state.withLock { state -> String in
        state.nextHeartbeat &+= 1
        state.heartbeatsSent[state.nextHeartbeat] = .now
        return heartbeatHead + String(state.nextHeartbeat)
      }
      // Not awaited here: a server that stopped answering must not stop the watch.
      let sent = Task {
        _ = try? await connection.query(
          "SELECT pg_notify(\(InvalidationNotice.channel), \(payload))", logger: silent)
      }
      try await Task.sleep(for: stalenessBound / 4)
      let silence = state.withLock { $0.lastHeard.duration(to: .now) }
      if silence > stalenessBound * 2 {
        sent.cancel()
        try? await connection.close()
        throw ListenerStalled(silence: silence)
      }
    }
  }

  /// Handles one notification of the session `session`: a heartbeat of this listener,
  /// a notice, or something else (ignored).
  private func receive(_ payload: String, session: UInt64) {
    if payload.hasPrefix("carlos-heartbeat\t") {
      guard payload.hasPrefix(heartbeatHead),
        let number = UInt64(payload.dropFirst(heartbeatHead.utf8.count))
      else { return }
      heard(number, session: session)
      return
    }
    guard let notice = InvalidationNotice(payload: payload) else {
      WarningLimiter.shared.warn(
        "Ignored a malformed invalidation notice", kind: "malformed invalidation notice")
      return
    }
    publish(.notice(notice))
  }

  /// Heartbeat `number` came back: every notice committed before it was sent has
  /// been handed out. The first one of a connection starts listening.
  private func heard(_ number: UInt64, session: UInt64) {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      guard state.session == session, let sentAt = state.heartbeatsSent[number] else { return [] }
      // Heartbeats come back in order: the older ones are lost or already back.
      state.heartbeatsSent = state.heartbeatsSent.filter { $0.key > number }
      state.lastHeard = sentAt
      if state.listening {
        freshUntil.store(TrustClock.nanoseconds(sentAt + stalenessBound), ordering: .releasing)
        return []
      }
      state.listening = true
      state.generation += 1
      for handler in state.subscribers.values { handler(.listening) }
      freshUntil.store(TrustClock.nanoseconds(sentAt + stalenessBound), ordering: .releasing)
      let waiters = Array(state.waiters.values)
      state.waiters = [:]
      return waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Waits until the listener listens (returns at once when it does).
  public func waitUntilListening() async {
    let id = UUID()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if state.listening { return true }
        state.waiters[id] = continuation
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// Calls `handler` with every event from now on (first with the current state),
  /// until the returned subscription is cancelled, or shortly after it is released.
  /// Handlers run one at a time, in order, while the listener's lock is held: they
  /// must not call back into the listener (releasing a subscription there is fine).
  public func subscribe(_ handler: @escaping @Sendable (Event) -> Void) -> ListenerSubscription {
    let id = UUID()
    state.withLock { state in
      state.subscribers[id] = handler
      handler(state.listening ? .listening : .stopped)
    }
    return ListenerSubscription { [weak self] in
      _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
    }
  }

  private func stopped() {
    state.withLock { state in
      state.session &+= 1
      freshUntil.store(0, ordering: .releasing)
      guard state.listening else { return }
      state.listening = false
      for handler in state.subscribers.values { handler(.stopped) }
    }
  }

  private func publish(_ event: Event) {
    state.withLock { state in
      for handler in state.subscribers.values { handler(event) }
    }
  }
}

/// Keeps a subscription to a ``PostgresInvalidationListener`` alive; it ends when
/// cancelled, or shortly after it is released.
public final class ListenerSubscription: Sendable {
  private let end: Locked<(@Sendable () -> Void)?>

  init(_ end: @escaping @Sendable () -> Void) {
    self.end = Locked(end)
  }

  /// Ends the subscription: once this returns, its handler is not called again.
  /// Must not be called from a handler.
  public func cancel() {
    takeEnd()?()
  }

  private func takeEnd() -> (@Sendable () -> Void)? {
    end.withLock { end in
      defer { end = nil }
      return end
    }
  }

  deinit {
    // The last reference can go away inside a handler — when a handler's owner is
    // released there — on the thread that holds the listener's lock, which ending
    // the subscription takes; so it ends on another thread.
    if let end = takeEnd() { DispatchQueue.global().async(execute: end) }
  }
}

/// The listener's notification sequence ended without an error.
struct ListenerConnectionEnded: Error {}

/// No heartbeat came back for `silence`: the connection was given up.
struct ListenerStalled: Error, CustomStringConvertible {
  var silence: Duration
  var description: String { "no heartbeat came back for \(silence); connection closed" }
}
#endif
