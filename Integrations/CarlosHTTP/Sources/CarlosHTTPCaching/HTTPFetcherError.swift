#if HTTPCaching
import Foundation

/// Why an ``HTTPFetcher`` request failed.
public enum HTTPFetcherError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The URL is not an `http` or `https` URL with a host.
  case unsupportedURL(URL)
  /// The server answered with this status where a 2xx was needed (``HTTPBodies``).
  case statusCode(Int)
  /// The response body is larger than the limit (in bytes).
  case responseTooLarge(limit: Int)
  /// Nothing arrived from the server for longer than the fetcher's timeout.
  case timedOut(Duration)
  /// The whole request took longer than the fetcher's deadline.
  case deadlineExceeded(Duration)
  /// The server redirected to a URL that is not `http` or `https`.
  case unsupportedRedirect(String)
  /// The server redirected more times than the fetcher (or the client's own
  /// redirect configuration) follows, or in a cycle the client detected.
  case tooManyRedirects
  /// The server could not be reached (refused, unknown host, connect timeout);
  /// carries the underlying description.
  case connectionFailed(String)
  /// The transfer failed for another reason (connection lost, malformed
  /// response); carries the underlying description.
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
    case .timedOut(let timeout):
      return "nothing arrived from the server for \(timeout)"
    case .deadlineExceeded(let deadline):
      return "the request took longer than its deadline of \(deadline)"
    case .unsupportedRedirect(let location):
      return "the server redirected to \(location); only http and https are followed"
    case .tooManyRedirects:
      return "the server redirected too many times, or in a cycle"
    case .connectionFailed(let reason):
      return "could not connect to the server: \(reason)"
    case .transferFailed(let reason):
      return "the transfer failed: \(reason)"
    }
  }
}
#endif
