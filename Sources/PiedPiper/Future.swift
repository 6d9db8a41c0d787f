import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only view of a result that arrives asynchronously: a value, an error,
/// or a cancellation.
///
/// A future completes at most once; the first completion wins and later ones are
/// ignored. Callbacks registered with ``onCompletion(_:)`` and its siblings run
/// exactly once: on the thread that completes the future, or at once on the
/// registering thread when the future is already complete. Callbacks are
/// released as soon as they have run. All members are safe to call from many
/// threads at once.
//
// Thread safety: `storedResult` and `handlers` are guarded by `phase`, an atomic
// that is either `pending` (nobody is touching them), `busy` (one thread holds
// them, as a lock) or `completed` (`storedResult` is set for good, `handlers` is
// empty, and neither changes again). A thread moves `pending` to `busy` with an
// acquiring compare-exchange, works, then publishes with a releasing store of
// `pending` or `completed`; a thread that loads `completed` (acquiring) reads
// `storedResult` without further synchronisation. The busy window covers a
// few stores only. This replaces a `Mutex`: the hot paths (promise, callback,
// completion; completed future, map, callback) take one atomic operation each
// instead of a lock and an unlock, and completed futures are read lock-free.
public final class Future<Value: Sendable>: Sendable {
  /// A callback that receives the outcome of a future.
  public typealias Callback = @Sendable (FutureResult<Value>) -> Void

  /// The three states of `phase`.
  @usableFromInline static var pending: UInt8 { 0 }
  @usableFromInline static var busy: UInt8 { 1 }
  @usableFromInline static var completed: UInt8 { 2 }

  /// See the thread-safety note above.
  @usableFromInline
  let phase: Atomic<UInt8>

  /// The outcome; guarded by `phase` (written only while `busy`, read once
  /// `completed`; `.cancelled` stands in while the future is pending). Not optional:
  /// a dying future then destroys it with one type lookup instead of two.
  @usableFromInline
  @exclusivity(unchecked)
  nonisolated(unsafe) var storedResult: FutureResult<Value>

  /// The callbacks waiting for the outcome; guarded by `phase` (touched only while `busy`).
  @usableFromInline
  @exclusivity(unchecked)
  nonisolated(unsafe) var handlers: Handlers

  /// Creates a pending future; only PiedPiper completes it (through ``complete(_:)``).
  @inlinable
  init(pending: Void) {
    phase = Atomic(Self.pending)
    storedResult = .cancelled
    handlers = .none
  }

  /// Frees the callbacks of a future that dies pending without recursing into the
  /// futures they complete (see ``FutureRelease``).
  deinit {
    if case .none = handlers { return }
    let started = FutureRelease.enqueue(handlers)
    handlers = .none
    if started { FutureRelease.drain() }
  }

  /// Creates a future that is already complete with `result`.
  @inlinable
  public init(result: FutureResult<Value>) {
    phase = Atomic(Self.completed)
    storedResult = result
    handlers = .none
  }

  /// Creates a future that has already succeeded with `value`.
  @inlinable
  public convenience init(_ value: Value) {
    self.init(result: .success(value))
  }

  /// Creates a future that has already failed with `error`.
  @inlinable
  public convenience init(_ error: any Error) {
    self.init(result: .error(error))
  }

  /// Creates a future that has succeeded with `value`, or failed with `error` when `value` is `nil`.
  @inlinable
  public convenience init(value: Value?, error: any Error) {
    if let value {
      self.init(result: .success(value))
    } else {
      self.init(result: .error(error))
    }
  }

  /// The result when the future has completed, otherwise `nil`. Never waits.
  @inlinable
  public var result: FutureResult<Value>? {
    if phase.load(ordering: .acquiring) == Self.completed { return storedResult }
    return nil
  }

  /// Gives a completed future that nobody else references a new outcome, so that
  /// its owner can hand the same object out again instead of making a new one.
  /// The caller must hold the only strong reference (checked with
  /// `isKnownUniquelyReferenced`, which orders this write after the other
  /// holders' reads, as for a copy-on-write buffer).
  @inlinable
  package func reuse(_ result: FutureResult<Value>) {
    storedResult = result
  }

  /// Whether the future has completed (succeeded, failed or been cancelled).
  @inlinable
  public var isCompleted: Bool {
    phase.load(ordering: .acquiring) == Self.completed
  }

  /// Takes `phase` from `pending` to `busy`. Returns `false`, without taking it,
  /// when the future is completed.
  @inlinable
  func acquire() -> Bool {
    var spins = 0
    while true {
      let (exchanged, seen) = phase.compareExchange(
        expected: Self.pending, desired: Self.busy, ordering: .acquiring)
      if exchanged { return true }
      if seen == Self.completed { return false }
      spins &+= 1
      Self.backOff(spins)
    }
  }

  /// Waits a little for another thread to leave `busy`: it holds `phase` for a few
  /// stores only, unless it was descheduled, so yield the processor after a while.
  @usableFromInline
  static func backOff(_ spins: Int) {
    if spins > 64 { sched_yield() }
  }

  /// Completes the future unless it is already complete, then runs the pending
  /// callbacks on the calling thread. Returns whether this call completed it.
  @inlinable
  @discardableResult
  func complete(_ result: FutureResult<Value>) -> Bool {
    guard acquire() else { return false }
    storedResult = result
    let waiting = handlers
    handlers = .none
    phase.store(Self.completed, ordering: .releasing)
    switch waiting {
    case .none:
      break
    case .one(let handler):
      if let next = handler.run(result) { drain(next) }
    case .many(let list):
      for handler in list {
        if let next = handler.run(result) { drain(next) }
      }
    }
    return true
  }

  /// Completes the future unless it is already complete, like ``complete(_:)``,
  /// but returns its pending callbacks instead of running them: the caller runs
  /// them (see ``FutureDelivery``). Returns nil when there is nothing to run.
  @inlinable
  func completeLater(_ result: FutureResult<Value>) -> (any FutureDelivery)? {
    guard acquire() else { return nil }
    storedResult = result
    let waiting = handlers
    handlers = .none
    phase.store(Self.completed, ordering: .releasing)
    switch waiting {
    case .none: return nil
    case .one(let handler): return Delivery(result, [handler])
    case .many(let list): return Delivery(result, list)
    }
  }

  /// Runs `handler` at once when the future is complete, or keeps it until it is.
  @inlinable
  func add(_ handler: Handler) {
    if phase.load(ordering: .acquiring) == Self.completed {
      // Completed: `storedResult` is set for good; readers need not write `phase`.
      if let next = handler.run(storedResult) { drain(next) }
      return
    }
    guard acquire() else {
      // Completed: `storedResult` is set for good.
      if let next = handler.run(storedResult) { drain(next) }
      return
    }
    handlers.append(handler)
    phase.store(Self.pending, ordering: .releasing)
  }

  /// Keeps `link` until the future completes; when it is complete already,
  /// runs `link` at once and returns what it returns, for the caller to run.
  @inlinable
  func chain(_ link: @escaping Link) -> (any FutureDelivery)? {
    guard acquire() else {
      // Completed: `storedResult` is set for good.
      return link(storedResult)
    }
    handlers.append(.link(link))
    phase.store(Self.pending, ordering: .releasing)
    return nil
  }

  /// Keeps a link that, when this future is cancelled, cancels `other` too.
  @inlinable
  func cancelOnCancel<U>(_ other: Future<U>) {
    let started = chain { [weak other] result in
      guard case .cancelled = result else { return nil }
      return other?.completeLater(.cancelled)
    }
    if let started { drain(started) }
  }

  /// Cancels the future. Pending callbacks see `.cancelled`; a future that is
  /// already complete is not affected. Futures derived from this one, and the
  /// work behind it, are told through their `onCancel` handlers.
  @inlinable
  public func cancel() {
    complete(.cancelled)
  }

  /// Registers a callback for the outcome, whatever it is.
  ///
  /// The callback runs exactly once: on the thread that completes the future,
  /// or immediately on this thread when the future is already complete.
  @inlinable
  @discardableResult
  public func onCompletion(_ callback: @escaping Callback) -> Future<Value> {
    add(.completion(callback))
    return self
  }

  /// Registers a callback for a successful value. Runs as described in ``onCompletion(_:)``.
  @inlinable
  @discardableResult
  public func onSuccess(_ callback: @escaping @Sendable (Value) -> Void) -> Future<Value> {
    if phase.load(ordering: .acquiring) == Self.completed {
      // Completed: `storedResult` is set for good.
      if case .success(let value) = storedResult { callback(value) }
      return self
    }
    add(.success(callback))
    return self
  }

  /// Registers a callback for a failure. Runs as described in ``onCompletion(_:)``.
  @inlinable
  @discardableResult
  public func onFailure(_ callback: @escaping @Sendable (any Error) -> Void) -> Future<Value> {
    add(.failure(callback))
    return self
  }

  /// Registers a callback for cancellation. Runs as described in ``onCompletion(_:)``.
  @inlinable
  @discardableResult
  public func onCancel(_ callback: @escaping @Sendable () -> Void) -> Future<Value> {
    add(.cancellation(callback))
    return self
  }
}

extension Future {
  /// PiedPiper's own callback between two futures: it completes the next future
  /// with ``completeLater(_:)`` and returns that future's callbacks to run.
  @usableFromInline
  typealias Link = @Sendable (FutureResult<Value>) -> (any FutureDelivery)?

  /// A registered callback, kept as the user gave it (no wrapping closure).
  @usableFromInline
  enum Handler {
    case completion(Callback)
    case success(@Sendable (Value) -> Void)
    case failure(@Sendable (any Error) -> Void)
    case cancellation(@Sendable () -> Void)
    case link(Link)

    /// Calls the callback when `result` is what it waits for; returns the
    /// callbacks of the future a link completed, for the caller to run.
    @inlinable
    func run(_ result: FutureResult<Value>) -> (any FutureDelivery)? {
      switch (self, result) {
      case (.completion(let callback), _): callback(result)
      case (.success(let callback), .success(let value)): callback(value)
      case (.failure(let callback), .error(let error)): callback(error)
      case (.cancellation(let callback), .cancelled): callback()
      case (.link(let link), _): return link(result)
      default: break
      }
      return nil
    }
  }

  /// The callbacks waiting for the outcome: none, one (the common case, stored
  /// without an array), or several in registration order.
  @usableFromInline
  enum Handlers {
    case none
    case one(Handler)
    case many([Handler])

    /// Adds `handler` after the others.
    @inlinable
    mutating func append(_ handler: Handler) {
      switch self {
      case .none:
        self = .one(handler)
      case .one(let first):
        self = .many([first, handler])
      case .many(var list):
        self = .none
        list.append(handler)
        self = .many(list)
      }
    }
  }
}

extension Future where Value == Void {
  /// Creates a `Future<Void>` that has already succeeded.
  @inlinable
  public convenience init() {
    self.init(result: .success(()))
  }
}
