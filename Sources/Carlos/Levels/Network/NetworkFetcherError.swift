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
  /// The server could not be reached (refused, unknown host, connection lost);
  /// carries the system's description.
  case connectionFailed(String)
  /// The transfer failed for another reason; carries the system's description.
  case transferFailed(String)

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
    case .connectionFailed(let reason):
      return "could not connect to the server: \(reason)"
    case .transferFailed(let reason):
      return "the transfer failed: \(reason)"
    }
  }
}
