#if Postgres
import Synchronization

/// Fails operations whose deadline has passed: one background task for all of them,
/// sleeping until the earliest pending deadline and ending when none is pending.
/// Arming and disarming a deadline costs a lock and a dictionary update, no task or
/// timer of its own; operations that finish before their deadline (nearly all) cost
/// no wake-up at all, so under steady load the task wakes about once per timeout
/// rather than once per operation or per tick.
final class DeadlineWatcher: Sendable {
  /// The watcher every level uses.
  static let shared = DeadlineWatcher()

  private struct State {
    var pending: [UInt64: (deadline: ContinuousClock.Instant, expire: @Sendable () -> Void)] = [:]
    var nextID: UInt64 = 0
    /// When the watching task wakes next, or nil when none runs.
    var wakeAt: ContinuousClock.Instant?
    /// The watching task, cancelled when an earlier deadline is armed.
    var watcher: Task<Void, Never>?
    var wakeUps = 0
  }

  private let state = Locked(State())

  /// How many times the watching task woke up so far (for tests and benchmarks).
  var wakeUps: Int { state.withLock { $0.wakeUps } }

  /// Calls `expire` once `timeout` has passed, unless ``disarm(_:)`` is called first.
  func arm(_ timeout: Duration, expire: @escaping @Sendable () -> Void) -> UInt64 {
    let deadline = ContinuousClock.now + timeout
    return state.withLock { state -> UInt64 in
      state.nextID &+= 1
      state.pending[state.nextID] = (deadline, expire)
      if state.wakeAt.map({ deadline < $0 }) ?? true {
        state.watcher?.cancel()
        state.wakeAt = deadline
        state.watcher = Task.detached { await self.watch(until: deadline) }
      }
      return state.nextID
    }
  }

  /// Forgets the deadline `id` (its operation finished).
  func disarm(_ id: UInt64) {
    _ = state.withLock { $0.pending.removeValue(forKey: id) }
  }

  /// Sleeps until `wakeAt`, expires what is due, and goes on until nothing is pending;
  /// returns at once when cancelled (a task for an earlier deadline took over).
  private func watch(until first: ContinuousClock.Instant) async {
    var wakeAt = first
    while true {
      do { try await Task.sleep(until: wakeAt, clock: .continuous) } catch { return }
      let now = ContinuousClock.now
      let woken = state.withLock {
        state -> (expired: [@Sendable () -> Void], next: ContinuousClock.Instant?)? in
        // Superseded (cancelled under this lock) after its sleep ended: the newer task
        // owns the state.
        if Task.isCancelled { return nil }
        state.wakeUps += 1
        var expired: [@Sendable () -> Void] = []
        var next: ContinuousClock.Instant?
        for (id, entry) in state.pending {
          if entry.deadline <= now {
            expired.append(entry.expire)
            state.pending[id] = nil
          } else if next.map({ entry.deadline < $0 }) ?? true {
            next = entry.deadline
          }
        }
        state.wakeAt = next
        if next == nil { state.watcher = nil }
        return (expired, next)
      }
      guard let (expired, next) = woken else { return }
      for expire in expired { expire() }
      guard let next else { return }
      wakeAt = next
    }
  }
}
#endif
