#if HTTPCaching
import Carlos
import Foundation

/// A level from `URL` to the body (`Data`) of a successful `GET`, on a level of
/// whole responses (an ``HTTPFetcher`` or an ``HTTPCache``): a status outside
/// 2xx fails with ``HTTPFetcherError/statusCode(_:)``. It stores nothing.
///
/// ```swift
/// let bytes = HTTPFetcher(client: client).bodies()
/// let data = try await bytes.get(URL(string: "https://example.com/logo.png")!)
/// ```
public struct HTTPBodies<Base: CacheLevel>: Fetcher
where Base.KeyType == HTTPRequestKey, Base.OutputType == HTTPResponse {
  /// The level is keyed by URLs.
  public typealias KeyType = URL
  /// The level answers with bodies.
  public typealias OutputType = Data

  /// The level of whole responses asked for each URL.
  public let base: Base

  /// Creates a level of bodies on `base`.
  public init(_ base: Base) {
    self.base = base
  }

  /// The body of the response to `GET key`; fails with
  /// ``HTTPFetcherError/statusCode(_:)`` when its status is not 2xx. Cancelling
  /// the future cancels the request.
  public func get(_ key: URL) -> Future<Data> {
    base.get(HTTPRequestKey(key)).map { response in
      guard response.isSuccess else { throw HTTPFetcherError.statusCode(response.status) }
      return response.body
    }
  }
}

extension CacheLevel where KeyType == HTTPRequestKey, OutputType == HTTPResponse {
  /// A level from `URL` to the body of a successful `GET` on this level.
  public func bodies() -> HTTPBodies<Self> {
    HTTPBodies(self)
  }
}
#endif
