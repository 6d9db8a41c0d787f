import Foundation

/// Why a ``NetworkFetcher`` request failed.
public enum NetworkFetcherError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The URL is not an `http` or `https` URL with a host.
  case unsupportedURL(URL)
  /// The server answered with a status outside 200–299.
  case statusCode(Int)
  /// The response body is larger than the fetcher's limit (in bytes).
  case responseTooLarge(limit: Int)
  /// The answer was not an HTTP response.
  case invalidResponse
  /// Nothing arrived from the server for longer than the fetcher's timeout.
  case timedOut
  /// The whole request took longer than the fetcher's deadline (in seconds).
  case deadlineExceeded(seconds: TimeInterval)
  /// The server redirected to a URL that is not `http` or `https`.
  case unsupportedRedirect(URL)
  /// The server could not be reached (refused, unknown host, connection lost);
  /// carries the system's description.
  case connectionFailed(String)
  /// The transfer failed for another reason; carries the system's description.
  case transferFailed(String)

  /// A human-readable description.
  public var description: String {
    switch self {
    case .unsupportedURL(let url):
      return "only http and https URLs can be fetched, not \(url.absoluteString)"
    case .statusCode(let status):
      return "the server answered with HTTP status \(status)"
    case .responseTooLarge(let limit):
      return "the response is larger than the limit of \(limit) bytes"
    case .invalidResponse:
      return "the answer was not an HTTP response"
    case .timedOut:
      return "the request timed out"
    case .deadlineExceeded(let seconds):
      return "the request took longer than its deadline of \(seconds) s"
    case .unsupportedRedirect(let url):
      return "the server redirected to \(url.absoluteString); only http and https are followed"
    case .connectionFailed(let reason):
      return "could not connect to the server: \(reason)"
    case .transferFailed(let reason):
      return "the transfer failed: \(reason)"
    }
  }
}
