import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A level that fetches the bytes at a URL over HTTP(S); it stores nothing.
///
/// A status outside 200–299 fails with ``NetworkFetcherError/statusCode(_:)``;
/// a body larger than ``maximumResponseSize`` fails with
/// ``NetworkFetcherError/responseTooLarge(limit:)`` without reading the rest;
/// when nothing arrives for ``timeout`` seconds the request fails with
/// ``NetworkFetcherError/timedOut``, and when the whole request takes longer
/// than ``deadline`` seconds it fails with
/// ``NetworkFetcherError/deadlineExceeded(seconds:)``. Redirects are followed
/// only to `http` and `https` URLs; any other fails with
/// ``NetworkFetcherError/unsupportedRedirect(_:)``. Cancelling the returned
/// future cancels the HTTP request and the future ends cancelled. Safe to use
/// from many threads.
///
/// Each fetcher owns one `URLSession`, released when the fetcher is.
///
/// On Linux, `URLSession` (FoundationNetworking, built on libcurl) keeps most of
/// a processor busy for as long as any request waits for data from its server:
/// about 0.85 of a core per process, however many requests wait, measured on
/// Debian 12 (libcurl 7.88, Swift 6.3). ``timeout`` and ``deadline`` bound how
/// long a slow server can keep it so.
public final class NetworkFetcher: Fetcher {
  public typealias KeyType = URL
  public typealias OutputType = Data

  /// The default limit on a response body: 50 MiB.
  public static let defaultMaximumResponseSize = 50 * 1024 * 1024

  /// Seconds without any data from the server before a request fails.
  public let timeout: TimeInterval
  /// The most seconds a whole request may take, however steadily data arrives;
  /// `nil` for no limit.
  public let deadline: TimeInterval?
  /// The largest response body, in bytes, the fetcher accepts.
  public let maximumResponseSize: Int

  private let session: URLSession
  private let delegate: NetworkTransferDelegate

  /// Creates a fetcher.
  ///
  /// - Parameters:
  ///   - timeout: seconds without any data from the server before a request
  ///     fails with ``NetworkFetcherError/timedOut``.
  ///   - deadline: the most seconds a whole request may take before it fails
  ///     with ``NetworkFetcherError/deadlineExceeded(seconds:)``; `nil` (the
  ///     default) for no limit beyond `timeout`.
  ///   - maximumResponseSize: the largest body, in bytes, a request may return.
  ///   - configuration: the session configuration (caching, headers, proxies);
  ///     the fetcher never uses a URL cache of its own, Carlos levels do the caching.
  ///     The fetcher works on a copy whose request timeout follows `timeout`.
  public init(
    timeout: TimeInterval = 30,
    deadline: TimeInterval? = nil,
    maximumResponseSize: Int = NetworkFetcher.defaultMaximumResponseSize,
    configuration: URLSessionConfiguration = .ephemeral
  ) {
    self.timeout = max(timeout, 0.001)
    self.deadline = deadline.map { max($0, 0.001) }
    self.maximumResponseSize = max(maximumResponseSize, 0)
    delegate = NetworkTransferDelegate(
      timeout: self.timeout, deadline: self.deadline, maximumResponseSize: self.maximumResponseSize)
    // FoundationNetworking ends a request after the configuration's request
    // timeout even when the request asks for longer: make the session's timer a
    // backstop behind `timeout`, on a copy (the caller's object is left alone).
    let ownConfiguration = (configuration.copy() as? URLSessionConfiguration) ?? .ephemeral
    ownConfiguration.timeoutIntervalForRequest = Self.backstop(for: self.timeout)
    session = URLSession(configuration: ownConfiguration, delegate: delegate, delegateQueue: nil)
  }

  deinit {
    session.finishTasksAndInvalidate()
  }

  /// The session's own inactivity timeout for a fetcher whose `timeout` is
  /// given: a whole second later, so that only the delegate's precise check fires.
  private static func backstop(for timeout: TimeInterval) -> TimeInterval {
    timeout.rounded(.up) + 1
  }

  /// Fetches the body at `key`.
  ///
  /// Fails with a ``NetworkFetcherError`` when the URL is not http(s), the
  /// server cannot be reached, answers with a status outside 200–299, sends a
  /// body that is too large, or stays silent longer than ``timeout``.
  public func get(_ key: URL) -> Future<Data> {
    guard let scheme = key.scheme?.lowercased(), scheme == "http" || scheme == "https",
      key.host != nil
    else {
      return Future(NetworkFetcherError.unsupportedURL(key))
    }
    // The session's own timer is a backstop; the delegate enforces `timeout`
    // precisely (the session rounds fractional timeouts down on Linux).
    let request = URLRequest(
      url: key,
      cachePolicy: .reloadIgnoringLocalCacheData,
      timeoutInterval: Self.backstop(for: timeout)
    )
    let promise = Promise<Data>()
    delegate.start(session.dataTask(with: request), completing: promise)
    return promise.future
  }
}
