import Synchronization

/// Fails operations whose deadline has passed: one background task for all of them,
/// waking every `tick` while any is pending and ending when none is. Arming and
/// disarming a deadline costs a lock and a dictionary update, no task or timer of
/// its own, so a deadline is honoured within one tick (5 ms).
final class DeadlineWatcher: Sendable {
  /// The watcher every level uses.
  static let shared = DeadlineWatcher()

  /// How often pending deadlines are checked.
  static let tick = Duration.milliseconds(5)

  private struct State {
    var pending: [UInt64: (deadline: ContinuousClock.Instant, expire: @Sendable () -> Void)] = [:]
    var nextID: UInt64 = 0
    var watching = false
  }

  private let state = Locked(State())

  /// Calls `expire` once `timeout` has passed, unless ``disarm(_:)`` is called first.
  func arm(_ timeout: Duration, expire: @escaping @Sendable () -> Void) -> UInt64 {
    let deadline = ContinuousClock.now + timeout
    let (id, start) = state.withLock { state -> (UInt64, Bool) in
      state.nextID &+= 1
      state.pending[state.nextID] = (deadline, expire)
      defer { state.watching = true }
      return (state.nextID, !state.watching)
    }
    if start { Task.detached { await self.watch() } }
    return id
  }

  /// Forgets the deadline `id` (its operation finished).
  func disarm(_ id: UInt64) {
    _ = state.withLock { $0.pending.removeValue(forKey: id) }
  }

  private func watch() async {
    while true {
      try? await Task.sleep(for: Self.tick)
      let now = ContinuousClock.now
      let (expired, done) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
        var expired: [@Sendable () -> Void] = []
        for (id, entry) in state.pending where entry.deadline <= now {
          expired.append(entry.expire)
          state.pending[id] = nil
        }
        if state.pending.isEmpty { state.watching = false }
        return (expired, state.pending.isEmpty)
      }
      for expire in expired { expire() }
      if done { return }
    }
  }
}
