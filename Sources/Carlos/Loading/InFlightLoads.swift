/// The loads of `get(_:orLoad:)` in flight, by level and key, so that concurrent
/// callers of one level share one load.
///
/// An entry lives from the first caller's miss until its load completes or every
/// caller has cancelled; the level it names is alive all that time (the load holds
/// it), so its identity cannot be reused meanwhile.
final class InFlightLoads: Sendable {
  /// A level and one of its keys.
  struct ID: Hashable, @unchecked Sendable {
    // Unchecked: `key` boxes a `Sendable` key; `AnyHashable` does not say so.
    let level: ObjectIdentifier
    let key: AnyHashable
  }

  /// One load: the promise every caller's future follows, and how many callers
  /// still wait for it (guarded by the shard's lock).
  final class Load: @unchecked Sendable {
    // Unchecked: `waiting` is read and written only under the lock of the shard
    // that holds the load; `promise` is an immutable `Sendable` reference.
    let promise: any Sendable
    var waiting = 1
    init(promise: any Sendable) { self.promise = promise }
  }

  /// The loads in flight of every level (an internal table, not a shared cache).
  static let all = InFlightLoads()

  /// A part of the table with its own lock.
  private final class Shard: Sendable {
    let loads = Lock<[ID: Load]>([:])
  }

  private let shards: [Shard] = (0..<32).map { _ in Shard() }

  private func shard(_ id: ID) -> Shard {
    shards[Int(UInt(bitPattern: id.hashValue) % UInt(shards.count))]
  }

  /// Joins the load in flight for `id`, or registers a new one (`isNew`) whose
  /// promise the caller must complete.
  func join<Value: Sendable>(_ id: ID) -> (load: Load, promise: Promise<Value>, isNew: Bool) {
    shard(id).loads.withLock { loads in
      if let load = loads[id], let promise = load.promise as? Promise<Value> {
        load.waiting += 1
        return (load, promise, false)
      }
      let promise = Promise<Value>()
      let load = Load(promise: promise)
      loads[id] = load
      return (load, promise, true)
    }
  }

  /// One caller of `load` stopped waiting. Returns true when it was the last one:
  /// the load is forgotten and the caller must cancel it.
  func leave(_ id: ID, _ load: Load) -> Bool {
    shard(id).loads.withLock { loads in
      guard loads[id] === load else { return false }
      load.waiting -= 1
      guard load.waiting == 0 else { return false }
      loads[id] = nil
      return true
    }
  }

  /// Forgets the load of `id` as it completes, so the next miss starts a new one.
  func finish(_ id: ID, _ load: Load) {
    shard(id).loads.withLock { loads in
      if loads[id] === load { loads[id] = nil }
    }
  }
}
