#if HTTP
import Carlos
import CarlosHTTP

/// An origin level that sends an idempotent request (GET, HEAD, OPTIONS, TRACE,
/// PUT, DELETE) once more when its connection fails
/// (``HTTPFetcherError/connectionFailed(_:)`` or
/// ``HTTPFetcherError/transferFailed(_:)``), as RFC 9110, section 9.2.2 allows: a
/// pooled upstream connection can be closed by the origin just as a request is
/// sent on it. Other requests, and other failures, are passed on as they are.
public struct IdempotentRetry<Base: CacheLevel>: Fetcher
where Base.KeyType == HTTPRequestKey, Base.OutputType == HTTPResponse {
  /// The level is keyed by requests.
  public typealias KeyType = HTTPRequestKey
  /// The level answers with whole responses.
  public typealias OutputType = HTTPResponse

  /// The methods that may be sent twice.
  public static var idempotentMethods: Set<String> {
    ["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"]
  }

  /// The level asked, once or twice.
  public let base: Base

  /// Creates the level over `base`.
  public init(_ base: Base) {
    self.base = base
  }

  /// The base level's response to `request`, asked again once when an idempotent
  /// request's connection failed.
  public func get(_ request: HTTPRequestKey) -> Future<HTTPResponse> {
    Future {
      do {
        return try await base.get(request).value
      } catch let error as HTTPFetcherError {
        guard Self.isConnectionFailure(error), Self.idempotentMethods.contains(request.method)
        else { throw error }
        return try await base.get(request).value
      }
    }
  }

  /// Whether `error` says the connection failed (rather than the server's answer).
  private static func isConnectionFailure(_ error: HTTPFetcherError) -> Bool {
    switch error {
    case .connectionFailed, .transferFailed: return true
    default: return false
    }
  }
}
#endif
