#if Vapor
import Carlos
import CarlosNIO
import Foundation
import NIOCore
import Vapor

/// A Vapor `Cache` over a Carlos pipeline of `Data` keyed by `String`: what
/// `app.cache` and `req.cache` answer after `app.caches.use(.carlos(pipeline))`.
///
/// Values are JSON-encoded with `JSONEncoder` on set and decoded with `JSONDecoder` on
/// get. A miss (``FetchError/valueNotInCache`` or ``FetchError/noCacheLevelsRemaining``)
/// is `nil`; any other failure of the pipeline, and a stored value that does not decode
/// as the asked type, fail the future with that error. Setting `nil` removes the key;
/// an expiration time becomes the entry's ``Expiry`` in every level of the pipeline.
/// The futures complete on the cache's event loop: the request's one for `req.cache`.
public struct CarlosCache: Cache, Sendable {
  /// The pipeline the cache reads and writes.
  public let pipeline: any CacheLevel<String, Data>
  /// The event loop the cache's futures complete on.
  public let eventLoop: any EventLoop

  /// A cache over `pipeline` whose futures complete on `eventLoop`.
  public init(pipeline: some CacheLevel<String, Data>, on eventLoop: any EventLoop) {
    self.init(erased: pipeline, on: eventLoop)
  }

  private init(erased pipeline: any CacheLevel<String, Data>, on eventLoop: any EventLoop) {
    self.pipeline = pipeline
    self.eventLoop = eventLoop
  }

  /// The value stored under `key`, decoded as `type`, or `nil` when there is none.
  /// `type` must be `Sendable`, as with Vapor's own caches.
  public func get<T: Decodable & Sendable>(_ key: String, as type: T.Type) -> EventLoopFuture<T?> {
    let request: Future<Data> = pipeline.get(key)
    return request.eventLoopFuture(on: eventLoop)
      .map { Optional($0) }
      .flatMapErrorThrowing { error in
        if let fetchError = error as? FetchError,
          fetchError == .valueNotInCache || fetchError == .noCacheLevelsRemaining
        {
          return nil
        }
        throw error
      }
      .flatMapThrowing { data in
        try data.map { try JSONDecoder().decode(type, from: $0) }
      }
  }

  /// Stores `value` under `key` as the pipeline's policy says, or removes `key` when
  /// `value` is `nil`.
  public func set<T: Encodable>(_ key: String, to value: T?) -> EventLoopFuture<Void> {
    write(key, value) { data in pipeline.set(data, forKey: key) }
  }

  /// Stores `value` under `key` until `expirationTime` from now (as the pipeline's
  /// policy says when `nil`), or removes `key` when `value` is `nil`. The moment is read
  /// from the system's clock once, when the call starts: every level of the pipeline
  /// expires the value at that moment.
  public func set<T: Encodable>(
    _ key: String, to value: T?, expiresIn expirationTime: CacheExpirationTime?
  ) -> EventLoopFuture<Void> {
    guard let expirationTime else { return set(key, to: value) }
    let expiry = Expiry.at(Date(timeIntervalSinceNow: TimeInterval(expirationTime.seconds)))
    return write(key, value) { data in pipeline.set(data, forKey: key, expiry: expiry) }
  }

  /// The same cache, its futures completing on `request`'s event loop.
  public func `for`(_ request: Request) -> CarlosCache {
    CarlosCache(erased: pipeline, on: request.eventLoop)
  }

  /// Encodes `value` and stores it with `store`, or removes `key` when it is `nil`.
  private func write<T: Encodable>(
    _ key: String, _ value: T?, store: (Data) -> Future<Void>
  ) -> EventLoopFuture<Void> {
    guard let value else { return pipeline.remove(key).eventLoopFuture(on: eventLoop) }
    do {
      let data = try JSONEncoder().encode(value)
      return store(data).eventLoopFuture(on: eventLoop)
    } catch {
      return eventLoop.makeFailedFuture(error)
    }
  }
}
#endif
