#if HTTP
import Synchronization

/// Gives up the transfers of one ``HTTPFetcher`` that received nothing for
/// their timeout or passed their deadline: one background task for all of
/// them, sleeping until the earliest moment one of them could expire, and
/// ending when none is watched. Watching a transfer costs a lock and a
/// dictionary update, no task or timer of its own; the task wakes when the
/// earliest transfer could expire, and sleeps on when it received something
/// since.
final class TransferWatcher: Sendable {
  /// One transfer watched.
  struct Watched {
    let activity: TransferActivity
    let timeout: Duration
    let deadline: (limit: Duration, at: ContinuousClock.Instant)?
    let expire: @Sendable () -> Void

    /// When it expires unless something arrives first.
    var due: ContinuousClock.Instant {
      let idle = activity.lastActivity + timeout
      return deadline.map { min(idle, $0.at) } ?? idle
    }

    /// Why it is given up at `now`, or `nil` while it may go on: of a timeout
    /// and a deadline that have both passed (the watcher woke late), the one
    /// that passed first.
    func expiry(at now: ContinuousClock.Instant) -> HTTPFetcherError? {
      let idle = activity.lastActivity + timeout
      if let deadline, now >= deadline.at, deadline.at <= idle {
        return .deadlineExceeded(deadline.limit)
      }
      return now >= idle ? .timedOut(timeout) : nil
    }
  }

  private struct State {
    var watched: [UInt64: Watched] = [:]
    var nextID: UInt64 = 0
    /// When the watching task wakes next, or `nil` when none runs.
    var wakeAt: ContinuousClock.Instant?
    /// The watching task, cancelled when an earlier wake-up is needed.
    var task: Task<Void, Never>?
  }

  private let state = Mutex(State())

  /// Watches the transfer whose `activity` is given: once nothing arrived for
  /// `timeout`, or `deadline` has passed since now, its activity records why
  /// and `expire` is called, unless ``forget(_:)`` is called first.
  func watch(
    _ activity: TransferActivity, timeout: Duration, deadline: Duration?,
    expire: @escaping @Sendable () -> Void
  ) -> UInt64 {
    let now = ContinuousClock.now
    let watched = Watched(
      activity: activity, timeout: timeout, deadline: deadline.map { ($0, now + $0) },
      expire: expire)
    let due = watched.due
    return state.withLock { state in
      state.nextID &+= 1
      state.watched[state.nextID] = watched
      if state.wakeAt.map({ due < $0 }) ?? true {
        state.task?.cancel()
        state.wakeAt = due
        state.task = Task.detached { await self.run(until: due) }
      }
      return state.nextID
    }
  }

  /// Stops watching the transfer `id` (it ended).
  func forget(_ id: UInt64) {
    _ = state.withLock { $0.watched.removeValue(forKey: id) }
  }

  /// Sleeps until `wakeAt`, gives up what is due, and goes on until nothing is
  /// watched; returns at once when cancelled (a task for an earlier wake-up
  /// took over).
  private func run(until first: ContinuousClock.Instant) async {
    var wakeAt = first
    while true {
      do { try await Task.sleep(until: wakeAt, clock: .continuous) } catch { return }
      let now = ContinuousClock.now
      let woken = state.withLock {
        state -> (expired: [(Watched, HTTPFetcherError)], next: ContinuousClock.Instant?)? in
        // Superseded (cancelled under this lock) after its sleep ended: the
        // newer task owns the state.
        if Task.isCancelled { return nil }
        var expired: [(Watched, HTTPFetcherError)] = []
        var next: ContinuousClock.Instant?
        for (id, watched) in state.watched {
          if let reason = watched.expiry(at: now) {
            expired.append((watched, reason))
            state.watched[id] = nil
          } else {
            let due = watched.due
            if next.map({ due < $0 }) ?? true { next = due }
          }
        }
        state.wakeAt = next
        if next == nil { state.task = nil }
        return (expired, next)
      }
      guard let (expired, next) = woken else { return }
      for (watched, reason) in expired {
        watched.activity.expire(reason)
        watched.expire()
      }
      guard let next else { return }
      wakeAt = next
    }
  }
}
#endif
