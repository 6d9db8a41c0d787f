

/// A read-only view of a result that arrives asynchronously: a value, an error,
/// or a cancellation.
///
/// A future completes at most once; the first completion wins and later ones are
/// ignored. Callbacks registered with ``onCompletion(_:)`` and its siblings run
/// exactly once: on the thread that completes the future, or at once on the
/// registering thread when the future is already complete. Callbacks are
/// released as soon as they have run. All members are safe to call from many
/// threads at once.
public final class Future<Value: Sendable>: Sendable {
  /// A callback that receives the outcome of a future.
  public typealias Callback = @Sendable (FutureResult<Value>) -> Void

  @usableFromInline
  enum Callbacks {
    case none
    case one(Callback)
    case many([Callback])
  }

  @usableFromInline
  struct State {
    @usableFromInline var result: FutureResult<Value>?
    @usableFromInline var callbacks: Callbacks

    @inlinable
    init(result: FutureResult<Value>?) {
      self.result = result
      self.callbacks = .none
    }
  }

  @usableFromInline
  let state: Lock<State>

  /// Creates a pending future; only PiedPiper completes it (through ``complete(_:)``).
  @inlinable
  init(pending: Void) {
    state = Lock(State(result: nil))
  }

  /// Creates a future that is already complete with `result`.
  @inlinable
  public init(result: FutureResult<Value>) {
    state = Lock(State(result: result))
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
    state.withLock { $0.result }
  }

  /// Whether the future has completed (succeeded, failed or been cancelled).
  @inlinable
  public var isCompleted: Bool {
    result != nil
  }

  /// Completes the future unless it is already complete, then runs the pending
  /// callbacks on the calling thread. Returns whether this call completed it.
  @inlinable
  @discardableResult
  func complete(_ result: FutureResult<Value>) -> Bool {
    let callbacks: Callbacks? = state.withLock { state in
      if state.result != nil { return nil }
      state.result = result
      let callbacks = state.callbacks
      state.callbacks = .none
      return callbacks
    }
    switch callbacks {
    case nil:
      return false
    case .none?:
      return true
    case .one(let callback)?:
      callback(result)
      return true
    case .many(let list)?:
      for callback in list { callback(result) }
      return true
    }
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
    let completed: FutureResult<Value>? = state.withLock { state in
      if let result = state.result { return result }
      switch state.callbacks {
      case .none:
        state.callbacks = .one(callback)
      case .one(let first):
        state.callbacks = .many([first, callback])
      case .many(var list):
        state.callbacks = .none
        list.append(callback)
        state.callbacks = .many(list)
      }
      return nil
    }
    if let completed { callback(completed) }
    return self
  }

  /// Registers a callback for a successful value. Runs as described in ``onCompletion(_:)``.
  @inlinable
  @discardableResult
  public func onSuccess(_ callback: @escaping @Sendable (Value) -> Void) -> Future<Value> {
    onCompletion { result in
      if case .success(let value) = result { callback(value) }
    }
  }

  /// Registers a callback for a failure. Runs as described in ``onCompletion(_:)``.
  @inlinable
  @discardableResult
  public func onFailure(_ callback: @escaping @Sendable (any Error) -> Void) -> Future<Value> {
    onCompletion { result in
      if case .error(let error) = result { callback(error) }
    }
  }

  /// Registers a callback for cancellation. Runs as described in ``onCompletion(_:)``.
  @inlinable
  @discardableResult
  public func onCancel(_ callback: @escaping @Sendable () -> Void) -> Future<Value> {
    onCompletion { result in
      if case .cancelled = result { callback() }
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
