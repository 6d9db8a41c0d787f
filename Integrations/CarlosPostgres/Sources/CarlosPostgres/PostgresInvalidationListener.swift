import Carlos
import Foundation
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Listens for the ``InvalidationNotice``s that ``PostgresCacheLevel``s send, on one
/// connection of a `PostgresClient` held for as long as it listens, and hands them
/// to the ``CoherentCache``s of this process.
///
/// Run it in a long-running task, like the client: `Task { await listener.run() }`,
/// or as a `Service` of a `ServiceGroup`, which stops it at graceful shutdown.
/// When its connection is lost (the server restarts, the network fails) it tells
/// every subscriber that it is down, retries every `reconnectDelay`, and once it
/// listens again tells them it is up; subscribers then start from empty upper
/// levels, since notices sent while it was down are lost.
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

  /// The client whose connection the listener holds.
  public let client: PostgresClient
  /// How long the listener waits before trying again after losing its connection.
  public let reconnectDelay: Duration

  private let state = Locked<State>(State())

  private struct State {
    var listening = false
    var generation = 0
    var subscribers: [UUID: @Sendable (Event) -> Void] = [:]
    var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
  }

  /// Creates a listener over `client` (which must be running).
  public init(client: PostgresClient, reconnectDelay: Duration = .milliseconds(200)) {
    self.client = client
    self.reconnectDelay = reconnectDelay
  }

  /// Whether the listener is listening now.
  public var isListening: Bool { state.withLock { $0.listening } }

  /// How many times the listener started listening (1 after the first connection).
  public var generation: Int { state.withLock { $0.generation } }

  /// Listens until the calling task is cancelled or its service group shuts down
  /// gracefully, reconnecting after failures. When it returns it no longer listens:
  /// the channel was unlistened and subscribers heard `stopped`.
  public func run() async {
    // Graceful shutdown cancels the loop, which ends the `LISTEN` (postgres-nio
    // sends `UNLISTEN` when the notification sequence is dropped).
    await cancelWhenGracefulShutdown { [self] in await listen() }
  }

  private func listen() async {
    while !Task.isCancelled {
      do {
        try await client.withConnection { connection in
          try await connection.listen(on: InvalidationNotice.channel) { notices in
            started()
            for try await notification in notices {
              guard let notice = InvalidationNotice(payload: notification.payload) else {
                CarlosLogger.log("Ignored a malformed invalidation notice", .warning)
                continue
              }
              publish(.notice(notice))
            }
          }
        }
      } catch {
        if !Task.isCancelled {
          CarlosLogger.log(
            "Invalidation listener lost its connection: \(String(reflecting: error))", .warning,
            metadata: ["level": "PostgresInvalidationListener"])
        }
      }
      stopped()
      try? await Task.sleep(for: reconnectDelay)
    }
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

  private func started() {
    let waiters = state.withLock { state in
      state.listening = true
      state.generation += 1
      for handler in state.subscribers.values { handler(.listening) }
      let waiters = Array(state.waiters.values)
      state.waiters = [:]
      return waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  private func stopped() {
    state.withLock { state in
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
