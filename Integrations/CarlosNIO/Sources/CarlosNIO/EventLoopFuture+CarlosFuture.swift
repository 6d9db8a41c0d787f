#if NIO
import Carlos
import NIOCore

extension EventLoopFuture where Value: Sendable {
  /// A Carlos ``Future`` that completes with this `EventLoopFuture`'s value or error.
  ///
  /// Its callbacks run on this future's event loop, the thread that completes it. An
  /// `EventLoopFuture` cannot be cancelled, so cancelling the returned future cancels
  /// only that future: its cancel callbacks run at once, while the NIO work goes on
  /// and its result, when it comes, is ignored.
  ///
  /// ```swift
  /// import Carlos
  /// import CarlosNIO
  /// import NIOCore
  ///
  /// func lookUp(_ load: EventLoopFuture<String>) -> Future<String> {
  ///   load.carlosFuture()
  /// }
  /// ```
  public func carlosFuture() -> Future<Value> {
    let promise = Promise<Value>()
    whenComplete { result in
      switch result {
      case .success(let value): promise.succeed(value)
      case .failure(let error): promise.fail(error)
      }
    }
    return promise.future
  }
}
#endif
