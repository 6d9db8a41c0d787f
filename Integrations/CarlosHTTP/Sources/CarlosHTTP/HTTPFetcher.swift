#if HTTP
import AsyncHTTPClient
import Carlos
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A level that performs HTTP requests with AsyncHTTPClient; it stores nothing.
///
/// A get sends the key's method, URL and header fields and answers with the
/// final response, whatever its status (use ``bodies()`` for a level that fails
/// on statuses outside 2xx). The body is streamed and counted: a response
/// larger than ``maximumResponseSize`` fails with
/// ``HTTPFetcherError/responseTooLarge(limit:)`` as soon as the count passes the
/// limit (or at once when `Content-Length` says so), and the connection is
/// closed. When nothing arrives for ``timeout`` the request fails with
/// ``HTTPFetcherError/timedOut(_:)``; when the whole request, redirects
/// included, takes longer than ``deadline`` it fails with
/// ``HTTPFetcherError/deadlineExceeded(_:)``. Redirects (301, 302, 303, 307, 308)
/// are followed up to ``maximumRedirects`` times, only to `http` and `https`
/// URLs; any other fails with ``HTTPFetcherError/unsupportedRedirect(_:)``.
/// In proxy mode (``Redirects/passOn``) a redirect is the answer. The key's
/// body, when it has one, is sent with the request.
/// Cancelling the returned future (or the task awaiting it) cancels the request
/// and closes its connection.
///
/// The caller owns the `HTTPClient` (and shuts it down); the fetcher never
/// creates one. The client's own redirect configuration applies first: with
/// `.disallow`, every redirect is followed by the fetcher under its rules.
///
/// ```swift
/// let http = HTTPFetcher(client: client, timeout: .seconds(10), maximumResponseSize: 1 << 20)
/// let page = try await http.get(HTTPRequestKey(url))
/// ```
public struct HTTPFetcher: Fetcher {
  /// The fetcher is keyed by requests.
  public typealias KeyType = HTTPRequestKey
  /// The fetcher answers with whole responses.
  public typealias OutputType = HTTPResponse

  /// The default limit on a response body: 50 MiB.
  public static let defaultMaximumResponseSize = 50 * 1024 * 1024

  /// The client that performs the requests.
  public let client: HTTPClient
  /// How long a request may wait without receiving anything.
  public let timeout: Duration
  /// The longest a whole request may take; `nil` for no limit beyond ``timeout``.
  public let deadline: Duration?
  /// The largest response body, in bytes, the fetcher accepts.
  public let maximumResponseSize: Int
  /// The most redirects one request follows.
  public let maximumRedirects: Int
  /// Whether redirects are followed (a client) or passed on (a proxy).
  public let redirects: Redirects
  /// Gives up the requests that pass their timeout or deadline; shared by the
  /// fetcher's copies.
  private let watcher = TransferWatcher()

  /// Creates a fetcher on `client`.
  ///
  /// - Parameters:
  ///   - client: the client to send requests with; the caller shuts it down.
  ///   - timeout: how long a request may wait without receiving anything
  ///     (at least 1 ms).
  ///   - deadline: the longest a whole request may take; `nil` (the default) for no limit.
  ///   - maximumResponseSize: the largest body, in bytes, a response may have.
  ///   - maximumRedirects: the most redirects one request follows.
  ///   - redirects: ``Redirects/follow`` (the default) for a client,
  ///     ``Redirects/passOn`` for a proxy, which answers with the redirect
  ///     itself (give it a client created with `redirectConfiguration: .disallow`).
  public init(
    client: HTTPClient,
    timeout: Duration = .seconds(30),
    deadline: Duration? = nil,
    maximumResponseSize: Int = HTTPFetcher.defaultMaximumResponseSize,
    maximumRedirects: Int = 5,
    redirects: Redirects = .follow
  ) {
    self.redirects = redirects
    self.client = client
    self.timeout = max(timeout, .milliseconds(1))
    self.deadline = deadline.map { max($0, .milliseconds(1)) }
    self.maximumResponseSize = max(maximumResponseSize, 0)
    self.maximumRedirects = max(maximumRedirects, 0)
  }

  /// Performs the request `key` describes; cancelling the future cancels it.
  public func get(_ key: HTTPRequestKey) -> Future<HTTPResponse> {
    Future { try await self.response(for: key) }
  }

  /// Performs the request `key` describes and returns the final response;
  /// cancelling the task cancels the request.
  ///
  /// Throws an ``HTTPFetcherError``, or `CancellationError` when cancelled.
  public func response(for key: HTTPRequestKey) async throws -> HTTPResponse {
    guard Self.isFetchable(key.url) else { throw HTTPFetcherError.unsupportedURL(key.url) }
    let activity = TransferActivity()
    // A task of its own (with the caller's task-local values), so that the
    // watcher can cancel it.
    let transfer = Task { try await self.transfer(key, activity: activity) }
    let watch = watcher.watch(activity, timeout: timeout, deadline: deadline) {
      transfer.cancel()
    }
    defer { watcher.forget(watch) }
    return try await withTaskCancellationHandler {
      do {
        return try await transfer.value
      } catch {
        throw activity.expiry ?? error
      }
    } onCancel: {
      transfer.cancel()
    }
  }

  // MARK: - Transfer

  /// Sends the request, follows redirects and reads the final body.
  private func transfer(_ key: HTTPRequestKey, activity: TransferActivity) async throws
    -> HTTPResponse
  {
    var url = key.url
    var method = key.method
    var headers = key.headers
    var body = key.body
    var redirects = 0
    while true {
      var request = HTTPClientRequest(url: url.absoluteString)
      request.method = HTTPMethod(rawValue: method)
      for field in headers { request.headers.add(name: field.name, value: field.value) }
      if !body.isEmpty { request.body = .bytes(ByteBuffer(bytes: body)) }
      let response: HTTPClientResponse
      do {
        response = try await client.execute(request, deadline: backstopDeadline())
      } catch {
        throw Self.mapped(error, connecting: true)
      }
      activity.touch()
      let status = Int(response.status.code)
      if self.redirects == .follow, [301, 302, 303, 307, 308].contains(status),
        let location = response.headers.first(name: "Location")
      {
        guard let target = URL(string: location, relativeTo: url)?.absoluteURL,
          Self.isFetchable(target)
        else { throw HTTPFetcherError.unsupportedRedirect(location) }
        guard redirects < maximumRedirects else {
          throw HTTPFetcherError.tooManyRedirects
        }
        redirects += 1
        if status == 303 && method != "HEAD" || (status == 301 || status == 302) && method == "POST"
        {
          method = "GET"
          body = Data()
          for name in ["content-length", "content-type", "content-encoding"] {
            headers.remove(name: name)
          }
        }
        if target.scheme?.lowercased() != url.scheme?.lowercased() || target.host != url.host
          || target.port != url.port
        {
          // Credentials are not sent to another origin.
          for name in ["authorization", "cookie", "proxy-authorization"] {
            headers.remove(name: name)
          }
        }
        url = target
        // The redirect's own body is not read: dropping it closes its connection.
        continue
      }
      let fields = HTTPHeaderFields(
        response.headers.map { HTTPHeader(name: $0.name, value: $0.value) })
      let head = HTTPResponse(status: status, headers: fields)
      let declared = response.headers.first(name: "Content-Length").flatMap { Int($0) }
      let handoff =
        method == "HEAD" || [204, 304].contains(status) ? nil : HTTPResponseHandoff.current
      if let handoff,
        declared.map({ $0 > maximumResponseSize }) == true
          || handoff.shouldStream(status, fields, declared)
      {
        let reader = HTTPBodyReader(response.body.makeAsyncIterator(), prefix: nil)
        return handoff.hand(.init(head: head, body: reader))
      }
      return try await readBody(
        of: response, head: head, declared: declared, method: method, activity: activity,
        observer: handoff?.observe(head, length: declared))
    }
  }

  /// `head` with the body of `response`, read chunk by chunk and counted against
  /// the limit, each chunk also appended to `observer` when there is one; a
  /// body that passes the limit is handed over to the task's
  /// ``HTTPResponseHandoff`` when there is one (to the observer alone when there
  /// is one: the answer is then the head, not to be stored).
  private func readBody(
    of response: HTTPClientResponse, head: HTTPResponse, declared: Int?, method: String,
    activity: TransferActivity, observer: HTTPResponseTee?
  ) async throws -> HTTPResponse {
    // Whatever ends the transfer ends the observed copy (a no-op once it ended).
    defer { observer?.fail(activity.expiry ?? CancellationError()) }
    let limit = maximumResponseSize
    if let declared, declared > limit, method != "HEAD" {
      throw HTTPFetcherError.responseTooLarge(limit: limit)
    }
    var body = Data()
    if let declared { body.reserveCapacity(declared) }
    var chunks = response.body.makeAsyncIterator()
    do {
      while let chunk = try await chunks.next() {
        guard chunk.readableBytes <= limit - body.count else {
          guard let handoff = HTTPResponseHandoff.current else {
            throw HTTPFetcherError.responseTooLarge(limit: limit)
          }
          if let observer {
            observer.continue(with: HTTPBodyReader(chunks, prefix: chunk))
            return handoff.observedOnly(head)
          }
          var prefix = ByteBuffer(bytes: body)
          prefix.writeImmutableBuffer(chunk)
          return handoff.hand(.init(head: head, body: HTTPBodyReader(chunks, prefix: prefix)))
        }
        chunk.withUnsafeReadableBytes { body.append(contentsOf: $0) }
        observer?.append(chunk)
        activity.touch()
      }
    } catch let error as HTTPFetcherError {
      observer?.fail(error)
      throw error
    } catch {
      let mapped = Self.mapped(error, connecting: false)
      observer?.fail(activity.expiry ?? mapped)
      throw mapped
    }
    observer?.finish()
    var whole = head
    whole.body = body
    return whole
  }

  /// AsyncHTTPClient's own deadline: a backstop a second after ``deadline``.
  private func backstopDeadline() -> NIODeadline {
    guard let deadline else { return .distantFuture }
    let (seconds, attoseconds) = (deadline + .seconds(1)).components
    return .now() + .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
  }

  /// Whether `url` is an `http` or `https` URL with a host.
  static func isFetchable(_ url: URL) -> Bool {
    guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
      return false
    }
    return scheme == "http" || scheme == "https"
  }

  /// The error a failure of AsyncHTTPClient or NIO means; `connecting` tells
  /// whether it came before the response's head.
  static func mapped(_ error: any Error, connecting: Bool) -> any Error {
    if error is CancellationError || error is HTTPFetcherError { return error }
    if let client = error as? HTTPClientError {
      if client == .cancelled { return CancellationError() }
      if client == .connectTimeout { return HTTPFetcherError.connectionFailed("connect timeout") }
      if client == .redirectLimitReached || client == .redirectCycleDetected {
        return HTTPFetcherError.tooManyRedirects
      }
      return HTTPFetcherError.transferFailed(String(describing: client))
    }
    if error is NIOConnectionError || error is SocketAddressError
      || (connecting && (error is IOError || error is ChannelError))
    {
      return HTTPFetcherError.connectionFailed(String(describing: error))
    }
    return HTTPFetcherError.transferFailed(String(describing: error))
  }
}
#endif
