/// The passes of `get(_:orLoad:)` in flight, by level and key, so that concurrent
/// callers of one level share one pass.
///
/// An entry lives from the first caller's call until its pass completes or every
/// caller has cancelled; the level it names is alive all that time (the pass holds
/// it), so its identity cannot be reused meanwhile. A pass that completes at once (a
/// hit in a level that answers synchronously) allocates nothing here: the promise
/// that later callers follow is made only when a second caller joins, or when the
/// pass turns out to take time.
@usableFromInline
final class InFlightLoads: Sendable {
  /// A level and one of its keys.
  @usableFromInline
  struct ID: Hashable, @unchecked Sendable {
    // Unchecked: `key` holds a `Sendable` key; `any Hashable` does not say so.
    @usableFromInline let level: ObjectIdentifier
    @usableFromInline let key: any Hashable
    /// The hash of `level` and `key`, computed once: it picks the shard, and the
    /// table hashes it rather than the key again.
    @usableFromInline let hash: Int

    @inlinable
    init<Key: Hashable>(level: ObjectIdentifier, key: Key) {
      var hasher = Hasher()
      hasher.combine(level)
      hasher.combine(key)
      self.level = level
      self.key = key
      self.hash = hasher.finalize()
    }

    @usableFromInline
    static func == (lhs: ID, rhs: ID) -> Bool {
      lhs.hash == rhs.hash && lhs.level == rhs.level && lhs.key.isEqual(to: rhs.key)
    }

    @usableFromInline
    func hash(into hasher: inout Hasher) {
      hasher.combine(hash)
    }
  }

  /// One pass in flight (kept under its shard's lock).
  @usableFromInline
  struct Pass: @unchecked Sendable {
    // Unchecked: `shared` holds a `Promise`, which is `Sendable`.
    /// Tells this pass from a later one of the same level and key.
    @usableFromInline let number: UInt64
    /// The promise every caller but a first one answered at once follows, once made.
    @usableFromInline var shared: (any Sendable)?
    /// The callers still waiting for the pass.
    @usableFromInline var waiting = 1

    @inlinable
    init(number: UInt64) { self.number = number }
  }

  /// How a caller takes part in a pass.
  @usableFromInline
  enum Role<Value: Sendable> {
    /// The first caller, who runs pass `number`.
    case first(number: UInt64)
    /// A later caller of pass `number`, who follows `shared`.
    case joined(number: UInt64, shared: Promise<Value>)
  }

  /// The passes in flight of every level (an internal table, not a shared cache).
  @usableFromInline static let all = InFlightLoads()

  /// A part of the table with its own lock.
  @usableFromInline
  final class Shard: Sendable {
    @usableFromInline let passes = Lock<(next: UInt64, passes: [ID: Pass])>((0, [:]))
  }

  @usableFromInline let shards: [Shard] = (0..<32).map { _ in Shard() }

  @inlinable
  func shard(_ id: ID) -> Shard {
    shards[Int(UInt(bitPattern: id.hash) % UInt(shards.count))]
  }

  /// Joins the pass in flight for `id`, or registers a new one that the caller runs.
  @inlinable
  func join<Value: Sendable>(_ id: ID) -> Role<Value> {
    shard(id).passes.withLock { table in
      if var pass = table.passes[id] {
        let shared = pass.shared as? Promise<Value> ?? Promise<Value>()
        pass.shared = shared
        pass.waiting += 1
        table.passes[id] = pass
        return .joined(number: pass.number, shared: shared)
      }
      table.next &+= 1
      table.passes[id] = Pass(number: table.next)
      return .first(number: table.next)
    }
  }

  /// The promise of pass `number` that later callers follow, made now if needed; nil
  /// when the pass is no longer in the table.
  @inlinable
  func shared<Value: Sendable>(_ id: ID, _ number: UInt64) -> Promise<Value>? {
    shard(id).passes.withLock { table in
      guard var pass = table.passes[id], pass.number == number else { return nil }
      let shared = pass.shared as? Promise<Value> ?? Promise<Value>()
      pass.shared = shared
      table.passes[id] = pass
      return shared
    }
  }

  /// Forgets pass `number` of `id` as it completes, so the next call starts a new
  /// one; returns the promise that later callers follow, if one was made.
  @inlinable
  func finish<Value: Sendable>(_ id: ID, _ number: UInt64) -> Promise<Value>? {
    shard(id).passes.withLock { table in
      guard let pass = table.passes.removeValue(forKey: id) else { return nil }
      guard pass.number == number else {
        table.passes[id] = pass  // a later pass: it stays
        return nil
      }
      return pass.shared as? Promise<Value>
    }
  }

  /// One caller of pass `number` stopped waiting. Returns true when it was the last
  /// one: the pass is forgotten and the caller must cancel it.
  @usableFromInline
  func leave(_ id: ID, _ number: UInt64) -> Bool {
    shard(id).passes.withLock { table in
      guard var pass = table.passes[id], pass.number == number else { return false }
      pass.waiting -= 1
      guard pass.waiting == 0 else {
        table.passes[id] = pass
        return false
      }
      table.passes[id] = nil
      return true
    }
  }
}

extension Hashable {
  /// Whether `other` is a value of this type equal to this one.
  fileprivate func isEqual(to other: any Hashable) -> Bool {
    guard type(of: other) == Self.self else { return false }
    return equals(other)
  }

  /// Whether `other`, a value of this very type, equals this one.
  private func equals<Other: Hashable>(_ other: Other) -> Bool {
    self == unsafeBitCast(other, to: Self.self)
  }
}
