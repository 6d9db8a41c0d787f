#if Postgres
import Foundation

/// Tasks sleeping until a notice names their key or their back-off ends, whichever
/// comes first. Each sleeper is resumed exactly once: by whoever removes it first.
final class Wakeups: Sendable {
  private struct State {
    var nextID = 0
    var sleepers: [Data: [Int: CheckedContinuation<Void, Never>]] = [:]
  }

  private let state = Locked(State())

  /// Returns when `wake(_:)` names `key`, `wakeAll()` runs, or `duration` has passed.
  func sleep(until key: Data, atMost duration: Duration) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let id = state.withLock { state in
        let id = state.nextID
        state.nextID += 1
        state.sleepers[key, default: [:]][id] = continuation
        return id
      }
      // One shared timer for every sleeper, no task of its own.
      _ = DeadlineWatcher.shared.arm(duration) { self.resume(key, id) }
    }
  }

  /// Wakes every sleeper of `key`.
  func wake(_ key: Data) {
    let woken = state.withLock { $0.sleepers.removeValue(forKey: key) } ?? [:]
    for continuation in woken.values { continuation.resume() }
  }

  /// Wakes every sleeper.
  func wakeAll() {
    let woken = state.withLock { state in
      defer { state.sleepers = [:] }
      return state.sleepers.values.flatMap(\.values)
    }
    for continuation in woken { continuation.resume() }
  }

  private func resume(_ key: Data, _ id: Int) {
    let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
      let found = state.sleepers[key]?.removeValue(forKey: id)
      if state.sleepers[key]?.isEmpty == true { state.sleepers[key] = nil }
      return found
    }
    continuation?.resume()
  }
}
#endif
