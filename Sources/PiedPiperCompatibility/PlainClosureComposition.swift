// `>>>` on plain closures, as PiedPiper wrote them: closures kept in `let` constants
// without `@Sendable`. PiedPiper's own `>>>` takes `@Sendable` closures and is chosen
// whenever both are; these apply only when a closure is not `@Sendable`, and their
// results are not `Sendable` either.

/// Composes two plain functions: `(f >>> g)(x) == g(f(x))`.
public func >>> <A, B, C>(f: @escaping (A) -> B, g: @escaping (B) -> C) -> (A) -> C {
  { g(f($0)) }
}

/// Composes two plain functions that may return `nil`: `nil` from `f` skips `g`.
public func >>> <A, B, C>(f: @escaping (A) -> B?, g: @escaping (B) -> C?) -> (A) -> C? {
  { f($0).flatMap(g) }
}

/// Composes two plain future-returning functions: the second runs on the first one's value.
public func >>> <A, B: Sendable, C: Sendable>(
  f: @escaping (A) -> Future<B>, g: @escaping (B) -> Future<C>
) -> (A) -> Future<C> {
  { value in
    let first = f(value)
    let promise = Promise<C>()
    // Unchecked: `g` is a plain closure the caller chose not to mark `@Sendable`; it
    // runs once, on the thread that completes `first`, as PiedPiper ran it.
    let next = UncheckedBox(g)
    promise.onCancel { first.cancel() }
    first.onCompletion { result in
      switch result {
      case .success(let value):
        let second = next.value(value)
        promise.onCancel { second.cancel() }
        second.onCompletion { promise.complete($0) }
      case .error(let error): promise.fail(error)
      case .cancelled: promise.cancel()
      }
    }
    return promise.future
  }
}

/// Carries a plain closure into a `@Sendable` callback.
private struct UncheckedBox<Value>: @unchecked Sendable {
  // Unchecked: see the call site; the closure is called once and never concurrently.
  let value: Value
  init(_ value: Value) { self.value = value }
}
