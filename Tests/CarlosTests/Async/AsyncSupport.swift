import Carlos
import Foundation

/// A level written with async/await over an actor store, as a user would write one:
/// it counts the loads, sets and removals that reached it.
actor ActorStore: AsyncCacheLevel {
  private var values: [String: String] = [:]
  private(set) var setOrder: [String] = []
  private(set) var clears = 0

  init(_ values: [String: String] = [:]) {
    self.values = values
  }

  func get(_ key: String) async throws -> String {
    guard let value = values[key] else { throw FetchError.valueNotInCache }
    return value
  }

  func set(_ value: String, forKey key: String) async throws {
    values[key] = value
    setOrder.append(value)
  }

  func remove(_ key: String) async throws {
    values[key] = nil
  }

  func clear() async throws {
    values = [:]
    clears += 1
  }

  func stored(_ key: String) -> String? { values[key] }
}

/// An async function that counts its calls and can hold them until released.
final class AsyncOrigin: Sendable {
  private let state = Lock<(calls: Int, cancelled: Int)>((0, 0))
  private let gate: Gate?

  /// An origin that answers at once, or (`held`) only once `release()` is called.
  init(held: Bool = false) {
    gate = held ? Gate() : nil
  }

  var calls: Int { state.withLock { $0.calls } }
  var cancelled: Int { state.withLock { $0.cancelled } }

  /// Answers `"<key> from origin"`; throws `FetchError.invalidKey` for "bad".
  @Sendable
  func load(_ key: String) async throws -> String {
    state.withLock { $0.calls += 1 }
    do {
      try await gate?.wait()
    } catch {
      state.withLock { $0.cancelled += 1 }
      throw error
    }
    if key == "bad" { throw FetchError.invalidKey }
    return "\(key) from origin"
  }

  func release() { gate?.open() }
}

/// A one-shot gate async code can wait on; waiting is cancellable.
final class Gate: Sendable {
  private let state = Lock<
    (open: Bool, waiters: [UInt64: CheckedContinuation<Void, any Error>], next: UInt64)
  >(
    (false, [:], 0))

  var isOpen: Bool { state.withLock { $0.open } }

  func open() {
    let waiters = state.withLock { state in
      state.open = true
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  func wait() async throws {
    let id = state.withLock { state in
      state.next += 1
      return state.next
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let resumeNow = state.withLock { state -> Bool in
          if state.open || Task.isCancelled { return true }
          state.waiters[id] = continuation
          return false
        }
        if resumeNow {
          if Task.isCancelled {
            continuation.resume(throwing: CancellationError())
          } else {
            continuation.resume()
          }
        }
      }
    } onCancel: {
      let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
      waiter?.resume(throwing: CancellationError())
    }
  }
}

/// Waits until `condition` holds, or `patience` runs out; returns whether it held.
func eventually(_ condition: @Sendable () async -> Bool) async -> Bool {
  let deadline = Date().addingTimeInterval(patience)
  while !(await condition()) {
    if Date() > deadline { return false }
    try? await Task.sleep(for: .milliseconds(2))
  }
  return true
}

/// An async function passed by name, as users write them.
@Sendable
func loadGreeting(_ key: String) async throws -> String {
  "hello, \(key)"
}
