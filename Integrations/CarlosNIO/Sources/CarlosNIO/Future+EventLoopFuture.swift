#if NIO
import Carlos
import NIOCore

extension Future {
  /// This future's result as an `EventLoopFuture` of `eventLoop`: its value, its
  /// error, or a `CancellationError` when this future is cancelled.
  ///
  /// The `EventLoopFuture`'s callbacks run on `eventLoop`, as NIO always does. An
  /// `EventLoopFuture` cannot be cancelled: to stop the work, keep this future and
  /// call ``Future/cancel()`` on it; the `EventLoopFuture` then fails with
  /// `CancellationError`.
  ///
  /// ```swift
  /// import Carlos
  /// import CarlosNIO
  /// import NIOCore
  ///
  /// func page(_ cache: BasicCache<String, String>, on loop: any EventLoop) -> EventLoopFuture<String> {
  ///   cache.get("/index.html").eventLoopFuture(on: loop)
  /// }
  /// ```
  public func eventLoopFuture(on eventLoop: any EventLoop) -> EventLoopFuture<Value> {
    if case .success(let value)? = result { return eventLoop.makeSucceededFuture(value) }
    let promise = eventLoop.makePromise(of: Value.self)
    onCompletion { result in
      switch result {
      case .success(let value): promise.succeed(value)
      case .error(let error): promise.fail(error)
      case .cancelled: promise.fail(CancellationError())
      }
    }
    return promise.futureResult
  }
}
#endif
