/// The callbacks of one completed future that are still to run, with its outcome.
///
/// Completing a future through a link (a `map`, a `flatMap`, a cancellation
/// passed to the source…) hands back the callbacks of the next future instead of
/// running them, and ``drain(_:)`` runs them in a loop. A chain of any length
/// thus completes with a constant depth of stack; callbacks run in the order a
/// recursive delivery would run them (each future's in registration order, the
/// callbacks of a future completed by a link before the next callback of the
/// future that completed it).
@usableFromInline
protocol FutureDelivery: AnyObject {
  /// Runs the next callback; returns the delivery of the future it completed, if any.
  func step() -> (any FutureDelivery)?
  /// Whether every callback has run.
  var isFinished: Bool { get }
}

/// Runs `first` and every delivery it leads to, depth first, without recursion.
@usableFromInline
func drain(_ first: any FutureDelivery) {
  var stack: [any FutureDelivery] = [first]
  while let top = stack.last {
    let next = top.step()
    // Popped before the next one is pushed: a chain keeps one delivery in the stack.
    if top.isFinished { stack.removeLast() }
    if let next { stack.append(next) }
  }
}

extension Future {
  /// The callbacks of a future of this type still to run, with its outcome. Used
  /// only by the thread that completed the future.
  @usableFromInline
  final class Delivery: FutureDelivery {
    @usableFromInline let result: FutureResult<Value>
    @usableFromInline var handlers: [Handler]
    @usableFromInline var index = 0

    @inlinable
    init(_ result: FutureResult<Value>, _ handlers: [Handler]) {
      self.result = result
      self.handlers = handlers
    }

    @inlinable
    var isFinished: Bool { index >= handlers.count }

    @inlinable
    func step() -> (any FutureDelivery)? {
      let handler = handlers[index]
      index += 1
      return handler.run(result)
    }
  }
}
