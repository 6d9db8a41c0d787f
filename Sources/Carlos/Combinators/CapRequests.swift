/// Why a level made with ``CacheLevel/capRequests(_:)`` refused a get.
public enum RequestCapperError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The level was made with a limit below 1, so no get could ever run.
  case invalidLimit(Int)

  /// A human-readable description.
  public var description: String {
    switch self {
    case .invalidLimit(let limit):
      return "capRequests needs a limit of at least 1 concurrent request, not \(limit)"
    }
  }
}

/// A level that runs at most ``limit`` gets on its inner level at once; the
/// others wait, first in first out, until a running get completes. Gets with their
/// source (``getWithSource(_:)``, as a composition above makes them) count and wait
/// alongside plain gets.
///
/// A get counts as running from the moment the inner level is asked until its
/// future completes, whatever the outcome. Cancelling a waiting get takes it out
/// of the line, so it never starts; cancelling a running one cancels the inner
/// request. Sets, removals, clear and memory warnings are not capped. Create one with
/// ``CacheLevel/capRequests(_:)``.
public final class RequestCapperCache<Inner: CacheLevel>: CacheLevel {
  public typealias KeyType = Inner.KeyType
  public typealias OutputType = Inner.OutputType

  /// A get waiting for its turn: a plain get, or one with its source.
  @usableFromInline
  enum Waiter: Sendable {
    case get(KeyType, Promise<OutputType>)
    case withSource(KeyType, Promise<CacheAnswer<OutputType>>)

    /// Whether the get was cancelled while it waited.
    @inlinable
    var isCancelled: Bool {
      switch self {
      case .get(_, let promise): return promise.future.isCompleted
      case .withSource(_, let promise): return promise.future.isCompleted
      }
    }

    /// Starts the get on `inner`, completing the waiting caller with it; answers
    /// whether the get already completed.
    @inlinable
    func start(on inner: Inner, whenDone done: @escaping @Sendable () -> Void) -> Bool {
      switch self {
      case .get(let key, let promise): return Self.start(inner.get(key), for: promise, done)
      case .withSource(let key, let promise):
        return Self.start(inner.getWithSource(key), for: promise, done)
      }
    }

    @inlinable
    static func start<T>(
      _ request: Future<T>, for promise: Promise<T>, _ done: @escaping @Sendable () -> Void
    ) -> Bool {
      promise.mimic(request)
      if request.isCompleted { return true }
      request.onCompletion { _ in done() }
      return false
    }
  }

  @usableFromInline
  struct State: Sendable {
    /// Gets started on the inner level and not yet completed.
    @usableFromInline var running = 0
    /// Gets waiting for their turn, in arrival order.
    @usableFromInline var waiting = WaitingQueue<Waiter>()

    @inlinable
    init() {}
  }

  /// The level whose gets are capped.
  public let inner: Inner
  /// The most gets that run on ``inner`` at once.
  public let limit: Int

  @usableFromInline
  let state = Lock(State())

  /// Creates a level that runs at most `limit` gets on `inner` at once. With a
  /// limit below 1 every get fails with ``RequestCapperError/invalidLimit(_:)``.
  @inlinable
  public init(_ inner: Inner, limit: Int) {
    self.inner = inner
    self.limit = limit
    if limit < 1 {
      CarlosLogger.log(RequestCapperError.invalidLimit(limit).description, .error)
    }
  }

  /// Gets the value for `key` from the inner level as soon as fewer than
  /// ``limit`` gets are running there, and after every get that came earlier.
  @inlinable
  public func get(_ key: KeyType) -> Future<OutputType> {
    capped({ inner.get(key) }, waiting: { .get(key, $0) })
  }

  /// Gets the value for `key` with its source (see ``CacheLevel/getWithSource(_:)``)
  /// under the same limit and in the same line as ``get(_:)``. This is how a
  /// composition above asks this level.
  @inlinable
  public func getWithSource(_ key: KeyType) -> Future<CacheAnswer<OutputType>> {
    capped({ inner.getWithSource(key) }, waiting: { .withSource(key, $0) })
  }

  /// Runs `request` at once when a slot is free and nobody waits; otherwise queues
  /// the get `waiter` makes of a promise of its own.
  @inlinable
  func capped<T: Sendable>(
    _ request: () -> Future<T>, waiting waiter: (Promise<T>) -> Waiter
  ) -> Future<T> {
    if limit < 1 { return Future(RequestCapperError.invalidLimit(limit)) }
    let ticket: (promise: Promise<T>, ticket: UInt64)? = state.withLock { state in
      if state.running < limit && state.waiting.isEmpty {
        state.running += 1
        return nil
      }
      let promise = Promise<T>()
      return (promise, state.waiting.append(waiter(promise)))
    }
    guard let ticket else {
      let request = request()
      if request.isCompleted {
        release()
      } else {
        request.onCompletion { [self] _ in release() }
      }
      return request
    }
    ticket.promise.onCancel { [self] in withdraw(ticket.ticket) }
    return ticket.promise.future
  }

  /// Takes a cancelled get out of the line.
  @inlinable
  func withdraw(_ ticket: UInt64) {
    state.withLock { state in
      _ = state.waiting.remove(ticket)
    }
  }

  /// A running get completed: hands its slot to the next waiting get, or frees it.
  @inlinable
  func release() {
    // A loop rather than recursion: inner gets that complete at once (memory
    // hits) hand the slot on without growing the stack.
    while true {
      let next: Waiter? = state.withLock { state in
        if let waiter = state.waiting.popFirst() { return waiter }
        state.running -= 1
        return nil
      }
      guard let next else { return }
      // Cancelled while leaving the line: it never starts, and keeps the slot for the next.
      if next.isCancelled { continue }
      if next.start(on: inner, whenDone: { [self] in release() }) { continue }
      return
    }
  }

  /// Stores `value` in the inner level at once; sets are not capped.
  @inlinable
  @discardableResult
  public func set(_ value: OutputType, forKey key: KeyType) -> Future<Void> {
    inner.set(value, forKey: key)
  }

  /// Stores `value` with `expiry` in the inner level at once; sets are not capped.
  @inlinable
  @discardableResult
  public func set(_ value: OutputType, forKey key: KeyType, expiry: Expiry) -> Future<Void> {
    inner.set(value, forKey: key, expiry: expiry)
  }

  /// Removes `key` from the inner level at once; removals are not capped.
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

extension CacheLevel {
  /// Returns a level that runs at most `limit` gets on this level at once.
  ///
  /// Further gets wait in arrival order and start as running ones complete; a
  /// waiting get that is cancelled never starts. Sets are not capped.
  @inlinable
  public func capRequests(_ limit: Int) -> RequestCapperCache<Self> {
    RequestCapperCache(self, limit: limit)
  }
}
