/// A level that shares requests in flight: concurrent gets for the same key
/// start one get on the inner level, and every caller receives its result
/// (concurrent ``getWithSource(_:)`` calls, which a composition above makes, share
/// one inner `getWithSource` in the same way).
///
/// Each caller gets a future of its own. Cancelling it completes only that
/// caller as cancelled; the inner request is cancelled once every caller
/// waiting for it has cancelled. Only requests in flight are shared: after the
/// inner request completes, or after every caller cancelled, the next get
/// starts a new inner request. Sets, removals, clear and memory warnings go
/// straight to the inner level. Create one with ``CacheLevel/pooled()``.
public final class PoolCache<Inner: CacheLevel>: CacheLevel where Inner.KeyType: Hashable {
  public typealias KeyType = Inner.KeyType
  public typealias OutputType = Inner.OutputType

  /// One inner request in flight, answering `Result`, and the callers waiting for it.
  @usableFromInline
  struct Entry<Result: Sendable>: Sendable {
    /// Tells this request apart from later requests for the same key.
    @usableFromInline let id: UInt64
    /// Callers that have not cancelled, the first caller included. Zero only
    /// while the entry is being created: an entry in the table always has a caller.
    @usableFromInline var activeCallers = 0
    /// The inner request, once the first caller's inner get has returned.
    @usableFromInline var inner: Future<Result>?
    /// The futures handed to callers, completed when the inner request completes.
    @usableFromInline var waiters: [Promise<Result>] = []

    @inlinable
    init(id: UInt64) {
      self.id = id
    }

    /// Adds a caller: the first one leads, later ones wait on a promise of their own.
    @inlinable
    mutating func join() -> Role<Result> {
      activeCallers += 1
      if activeCallers == 1 { return .leader(id: id) }
      let promise = Promise<Result>()
      waiters.append(promise)
      return .follower(id: id, promise: promise)
    }

    /// Records the inner request of request `id` and its first caller's future.
    /// Returns false when this entry belongs to another request.
    @inlinable
    mutating func start(_ id: UInt64, request: Future<Result>, leader: Promise<Result>) -> Bool {
      guard id == self.id else { return false }
      inner = request
      waiters.append(leader)
      return true
    }
  }

  /// The requests in flight: gets and gets with their source are shared each with
  /// their own kind.
  @usableFromInline
  struct State: Sendable {
    @usableFromInline var gets: [KeyType: Entry<OutputType>] = [:]
    @usableFromInline var answers: [KeyType: Entry<CacheAnswer<OutputType>>] = [:]
    @usableFromInline var nextID: UInt64 = 0

    @inlinable
    init() {}
  }

  /// What a get found when it looked for a request in flight.
  @usableFromInline
  enum Role<Result: Sendable>: Sendable {
    /// No request was in flight: this caller starts one.
    case leader(id: UInt64)
    /// A request was in flight: this caller waits for it with `promise`.
    case follower(id: UInt64, promise: Promise<Result>)
  }

  /// The level whose requests are shared.
  public let inner: Inner

  @usableFromInline
  let state = Lock(State())

  /// Creates a level that shares the requests in flight of `inner`.
  @inlinable
  public init(_ inner: Inner) {
    self.inner = inner
  }

  /// Gets the value for `key`, joining the inner request already in flight for
  /// `key` if there is one. The future is this caller's own: cancelling it
  /// leaves other callers untouched.
  @inlinable
  public func get(_ key: KeyType) -> Future<OutputType> {
    shared(key, in: PoolGets<Inner>.self) { inner.get($0) }
  }

  /// Gets the value for `key` with its source (see ``CacheLevel/getWithSource(_:)``),
  /// joining the inner `getWithSource` already in flight for `key` if there is one,
  /// as ``get(_:)`` joins gets. This is how a composition above asks this level.
  @inlinable
  public func getWithSource(_ key: KeyType) -> Future<CacheAnswer<OutputType>> {
    shared(key, in: PoolAnswers<Inner>.self) { inner.getWithSource($0) }
  }

  /// Joins the request for `key` in flight in `table`, or starts one with `request`.
  @inlinable
  func shared<Table: PoolTable>(
    _ key: KeyType, in table: Table.Type,
    _ request: (KeyType) -> Future<Table.Result>
  ) -> Future<Table.Result> where Table.Inner == Inner {
    // Looking up and inserting happen under one lock, so two callers can never
    // both start an inner request for the same key.
    let role: Role<Table.Result> = state.withLock { state in
      state.nextID &+= 1
      let id = state.nextID
      return Table.access(&state) { $0[key, default: Entry(id: id)].join() }
    }
    switch role {
    case .leader(let id):
      return lead(key, id: id, in: table, request: request(key))
    case .follower(let id, let promise):
      promise.onCancel { [self] in callerCancelled(key, id: id, in: table) }
      return promise.future
    }
  }

  /// Hands `request`, the inner request for `key`, to the first caller of request `id`.
  @inlinable
  func lead<Table: PoolTable>(
    _ key: KeyType, id: UInt64, in table: Table.Type, request: Future<Table.Result>
  ) -> Future<Table.Result> where Table.Inner == Inner {
    if let result = request.result {
      // Already done (a memory hit, say): nothing stays in flight, and the
      // caller can have the inner future itself, since it cannot be cancelled any more.
      let waiters = state.withLock { state in
        Table.access(&state) { $0.removeValue(forKey: key)?.waiters ?? [] }
      }
      for waiter in waiters { waiter.complete(result) }
      return request
    }
    let promise = Promise<Table.Result>()
    let started = state.withLock { state in
      Table.access(&state) { $0[key]?.start(id, request: request, leader: promise) ?? false }
    }
    // The entry stays until this caller is counted out, so it is always found;
    // should it not be, the caller still gets the result.
    if !started {
      promise.mimic(request)
      return promise.future
    }
    request.onCompletion { [self] result in finish(key, id: id, in: table, result: result) }
    promise.onCancel { [self] in callerCancelled(key, id: id, in: table) }
    return promise.future
  }

  /// Completes every caller of request `id` with its result, and forgets the request.
  @inlinable
  func finish<Table: PoolTable>(
    _ key: KeyType, id: UInt64, in table: Table.Type, result: FutureResult<Table.Result>
  ) where Table.Inner == Inner {
    let waiters: [Promise<Table.Result>] = state.withLock { state in
      Table.access(&state) { entries in
        guard let index = entries.index(forKey: key), entries.values[index].id == id else {
          return []
        }
        return entries.remove(at: index).value.waiters
      }
    }
    for waiter in waiters { waiter.complete(result) }
  }

  /// Counts one caller of request `id` out; when none is left, forgets the
  /// request and cancels it.
  @inlinable
  func callerCancelled<Table: PoolTable>(_ key: KeyType, id: UInt64, in table: Table.Type)
  where Table.Inner == Inner {
    let abandoned: Future<Table.Result>? = state.withLock { state in
      Table.access(&state) { entries in
        guard let index = entries.index(forKey: key), entries.values[index].id == id else {
          return nil
        }
        entries.values[index].activeCallers -= 1
        if entries.values[index].activeCallers > 0 { return nil }
        return entries.remove(at: index).value.inner
      }
    }
    abandoned?.cancel()
  }

  /// Stores `value` in the inner level; sets are not pooled.
  @inlinable
  @discardableResult
  public func set(_ value: OutputType, forKey key: KeyType) -> Future<Void> {
    inner.set(value, forKey: key)
  }

  /// Stores `value` with `expiry` in the inner level; sets are not pooled.
  @inlinable
  @discardableResult
  public func set(_ value: OutputType, forKey key: KeyType, expiry: Expiry) -> Future<Void> {
    inner.set(value, forKey: key, expiry: expiry)
  }

  /// Removes `key` from the inner level; removals are not pooled.
  @inlinable
  @discardableResult
  public func remove(_ key: KeyType) -> Future<Void> {
    inner.remove(key)
  }

  /// Removes the inner level's expired values.
  @inlinable
  @discardableResult
  public func removeExpired() -> Future<Void> {
    inner.removeExpired()
  }

  /// Clears the inner level.
  @inlinable
  public func clear() {
    inner.clear()
  }

  /// Forwards the memory warning to the inner level.
  @inlinable
  public func onMemoryWarning() {
    inner.onMemoryWarning()
  }
}

extension CacheLevel where KeyType: Hashable {
  /// Returns a level whose concurrent gets for the same key share one request
  /// to this level.
  ///
  /// Each caller gets its own future; cancelling it cancels only that caller,
  /// and the shared request is cancelled once every caller has cancelled. After
  /// the shared request completes, the next get starts a new one. Sets, clear
  /// and memory warnings are passed through.
  @inlinable
  public func pooled() -> PoolCache<Self> {
    PoolCache(self)
  }
}

/// One of the tables of requests in flight of a ``PoolCache``: the gets or the gets
/// with their source.
@usableFromInline
protocol PoolTable: SendableMetatype {
  associatedtype Inner: CacheLevel where Inner.KeyType: Hashable
  associatedtype Result: Sendable
  /// Runs `body` on this table of `state`.
  static func access<T>(
    _ state: inout PoolCache<Inner>.State,
    _ body: (inout [Inner.KeyType: PoolCache<Inner>.Entry<Result>]) -> T
  ) -> T
}

/// The gets in flight of a ``PoolCache``.
@usableFromInline
enum PoolGets<Inner: CacheLevel>: PoolTable where Inner.KeyType: Hashable {
  @inlinable
  static func access<T>(
    _ state: inout PoolCache<Inner>.State,
    _ body: (inout [Inner.KeyType: PoolCache<Inner>.Entry<Inner.OutputType>]) -> T
  ) -> T { body(&state.gets) }
}

/// The gets with their source in flight of a ``PoolCache``.
@usableFromInline
enum PoolAnswers<Inner: CacheLevel>: PoolTable where Inner.KeyType: Hashable {
  @inlinable
  static func access<T>(
    _ state: inout PoolCache<Inner>.State,
    _ body: (inout [Inner.KeyType: PoolCache<Inner>.Entry<CacheAnswer<Inner.OutputType>>]) -> T
  ) -> T { body(&state.answers) }
}
