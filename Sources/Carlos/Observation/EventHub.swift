import Dispatch
import Synchronization

/// The observers of one level and the queue their callbacks run on.
///
/// Events are handed to the queue in the order the level emits them (levels emit
/// under their own lock, so events of one key are in the order of the changes);
/// callbacks run on the queue, one at a time, never under the level's lock and
/// never on the thread of a `get`. With no observer, emitting costs one atomic load.
@usableFromInline
final class EventHub<Key: Sendable>: Sendable {
  /// One observer: which events it wants and what to call.
  struct Observer: Sendable {
    let wants: @Sendable (CacheEvent<Key>) -> Bool
    let callback: @Sendable (CacheEvent<Key>) -> Void
  }

  private let observers = Lock<(next: UInt64, all: [UInt64: Observer])>((0, [:]))
  @usableFromInline let count = Atomic<Int>(0)
  private let queue = DispatchQueue(label: "Carlos.CacheEvents")

  @usableFromInline
  init() {}

  /// Whether anyone observes: levels skip building events when not.
  @inlinable
  var isObserved: Bool { count.load(ordering: .relaxed) > 0 }

  /// Adds an observer of the events `wants` accepts.
  func observe(
    where wants: @escaping @Sendable (CacheEvent<Key>) -> Bool,
    _ callback: @escaping @Sendable (CacheEvent<Key>) -> Void
  ) -> ObservationToken {
    let id = observers.withLock { state in
      state.next += 1
      state.all[state.next] = Observer(wants: wants, callback: callback)
      return state.next
    }
    count.wrappingAdd(1, ordering: .relaxed)
    // Weak: a token (or an event stream) must not keep a released level's hub alive;
    // releasing the hub releases its observers, which ends their streams.
    return ObservationToken { [weak self] in
      guard let self else { return }
      let removed = observers.withLock { $0.all.removeValue(forKey: id) }
      if removed != nil { count.wrappingSubtract(1, ordering: .relaxed) }
    }
  }

  /// Adds an observer of every event.
  func observeAll(_ callback: @escaping @Sendable (CacheEvent<Key>) -> Void) -> ObservationToken {
    observe(where: { _ in true }, callback)
  }

  /// Hands `events` to the observers that want them, on the hub's queue.
  @usableFromInline
  func emit(_ events: [CacheEvent<Key>]) {
    guard isObserved, !events.isEmpty else { return }
    queue.async { [self] in
      let current = observers.withLock { Array($0.all.values) }
      for event in events {
        for observer in current where observer.wants(event) { observer.callback(event) }
      }
    }
  }

  /// Hands one event to the observers that want it.
  func emit(_ event: CacheEvent<Key>) {
    guard isObserved else { return }
    emit([event])
  }

  /// Runs `body` on the queue once every event emitted before has been delivered (for tests).
  package func afterDelivery() async {
    await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
  }
}

extension EventHub where Key: Equatable {
  /// Adds an observer of the events about `key`, and of clears and memory warnings.
  func observe(
    key: Key, _ callback: @escaping @Sendable (CacheEvent<Key>) -> Void
  ) -> ObservationToken {
    observe(where: { event in event.key.map { $0 == key } ?? true }, callback)
  }
}

/// A level whose events can be observed, as a whole or for one key.
public protocol ObservableCacheLevel<KeyType, OutputType>: CacheLevel {
  /// Calls `callback` with every event of the level until the token is cancelled or released.
  ///
  /// Callbacks run one at a time on a queue of the level, in the order of the
  /// changes, never under the level's lock.
  func observe(_ callback: @escaping @Sendable (CacheEvent<KeyType>) -> Void) -> ObservationToken

  /// Calls `callback` with the events about `key` (and with clears and memory
  /// warnings, which concern every key) until the token is cancelled or released.
  func observe(
    key: KeyType, _ callback: @escaping @Sendable (CacheEvent<KeyType>) -> Void
  ) -> ObservationToken
}
