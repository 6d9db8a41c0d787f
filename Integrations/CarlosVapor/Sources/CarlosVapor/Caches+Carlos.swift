#if Vapor
import Carlos
import Foundation
import Vapor

extension Application.Caches.Provider {
  /// Makes `app.cache` and `req.cache` a ``CarlosCache`` over `pipeline`, a Carlos
  /// pipeline of `Data` keyed by `String` (such as `memory >>> disk`).
  ///
  /// ```swift
  /// import Carlos
  /// import CarlosVapor
  /// import Foundation
  /// import Vapor
  ///
  /// func configure(_ app: Application) {
  ///   app.caches.use(.carlos(MemoryCacheLevel<String, Data>(capacity: 64 << 20)))
  /// }
  /// ```
  public static func carlos(_ pipeline: some CacheLevel<String, Data>) -> Self {
    .init { application in
      application.caches.use { application in
        CarlosCache(pipeline: pipeline, on: application.eventLoopGroup.any())
      }
    }
  }
}
#endif
