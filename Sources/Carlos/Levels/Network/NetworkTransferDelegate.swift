import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session delegate of one ``NetworkFetcher``: it collects each task's body,
/// enforces the size limit and the idle timeout, and completes each task's promise.
///
/// Transfers are kept by task identifier; the first of success, failure, timeout
/// or cancellation removes the transfer and completes its promise.
final class NetworkTransferDelegate: NSObject, URLSessionDataDelegate, Sendable {
  private struct Transfer {
    let promise: Promise<Data>
    let task: URLSessionDataTask
    var body = Data()
    var lastActivity = DispatchTime.now()
  }

  private let transfers = Lock<[Int: Transfer]>([:])
  private let timeout: TimeInterval
  private let maximumResponseSize: Int
  private let timerQueue = DispatchQueue(label: "Carlos.NetworkFetcher.timeouts")
  /// Where tasks are cancelled, off the delegate queue.
  private let cancelQueue = DispatchQueue(label: "Carlos.NetworkFetcher.cancel")

  private let deadline: TimeInterval?

  init(timeout: TimeInterval, deadline: TimeInterval?, maximumResponseSize: Int) {
    self.timeout = timeout
    self.deadline = deadline
    self.maximumResponseSize = maximumResponseSize
  }

  /// Starts `task`, completing `promise` when it ends. Cancelling the promise's
  /// future cancels the task.
  func start(_ task: URLSessionDataTask, completing promise: Promise<Data>) {
    let identifier = task.taskIdentifier
    transfers.withLock { $0[identifier] = Transfer(promise: promise, task: task) }
    promise.onCancel { [weak self] in
      self?.finish(identifier, with: .cancelled)
    }
    scheduleTimeoutCheck(identifier, after: timeout)
    if let deadline {
      timerQueue.asyncAfter(deadline: .now() + deadline) { [weak self] in
        self?.finish(
          identifier, with: .error(NetworkFetcherError.deadlineExceeded(seconds: deadline)))
      }
    }
    task.resume()
  }

  /// The number of transfers in flight (for tests and diagnostics).
  var transfersInFlight: Int {
    transfers.withLock { $0.count }
  }

  // MARK: - Delegate callbacks

  func urlSession(
    _ session: URLSession,
    dataTask: URLSessionDataTask,
    didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let identifier = dataTask.taskIdentifier
    if let failure = Self.failure(for: response, limit: maximumResponseSize) {
      finish(identifier, with: .error(failure))
      completionHandler(.cancel)
      return
    }
    transfers.withLock { $0[identifier]?.lastActivity = .now() }
    completionHandler(.allow)
  }

  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    // FoundationNetworking turns a Location of another scheme into a path on
    // the same host, so judge the Location the server sent, not `request`.
    let location = response.value(forHTTPHeaderField: "Location").flatMap {
      URL(string: $0, relativeTo: response.url)?.absoluteURL
    }
    guard let target = location ?? request.url, Self.isFetchable(target),
      let url = request.url, Self.isFetchable(url)
    else {
      let target = location ?? request.url ?? URL(fileURLWithPath: "/")
      // Declined, the task ends by itself with the redirect response; cancelling
      // it as well would race FoundationNetworking, which waits for this answer.
      finish(
        task.taskIdentifier, with: .error(NetworkFetcherError.unsupportedRedirect(target)),
        cancellingTask: false)
      completionHandler(nil)
      return
    }
    completionHandler(request)
  }

  /// Whether `url` is an `http` or `https` URL with a host.
  private static func isFetchable(_ url: URL) -> Bool {
    guard let scheme = url.scheme?.lowercased() else { return false }
    return (scheme == "http" || scheme == "https") && url.host != nil
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let identifier = dataTask.taskIdentifier
    let tooLarge: Bool = transfers.withLock { transfers in
      guard let received = transfers[identifier]?.body.count else { return false }
      if received + data.count > maximumResponseSize { return true }
      // Appended in place: the body is never copied.
      transfers[identifier]?.body.append(data)
      transfers[identifier]?.lastActivity = .now()
      return false
    }
    if tooLarge {
      finish(
        identifier, with: .error(NetworkFetcherError.responseTooLarge(limit: maximumResponseSize)))
    }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    let identifier = task.taskIdentifier
    if let error {
      finish(identifier, with: Self.result(for: error))
      return
    }
    guard let response = task.response else {
      finish(identifier, with: .error(NetworkFetcherError.invalidResponse))
      return
    }
    if let failure = Self.failure(for: response, limit: maximumResponseSize) {
      finish(identifier, with: .error(failure))
      return
    }
    let body: Data? = transfers.withLock { $0[identifier]?.body }
    if let body { finish(identifier, with: .success(body)) }
  }

  // MARK: - Completion

  /// Removes the transfer and completes its promise with `result`; cancels the
  /// task unless it succeeded or `cancellingTask` is false. Does nothing when
  /// the transfer already finished.
  private func finish(
    _ identifier: Int, with result: FutureResult<Data>, cancellingTask: Bool = true
  ) {
    guard let transfer = transfers.withLock({ $0.removeValue(forKey: identifier) }) else { return }
    if result.value == nil && cancellingTask {
      // `cancel()` waits for the session's queue, which is busy receiving: do
      // not hold up this queue meanwhile, it has received data to drop.
      let task = transfer.task
      cancelQueue.async { task.cancel() }
    }
    transfer.promise.complete(result)
  }

  private func scheduleTimeoutCheck(_ identifier: Int, after seconds: TimeInterval) {
    timerQueue.asyncAfter(deadline: .now() + seconds) { [weak self] in
      self?.checkTimeout(identifier)
    }
  }

  /// Fails the transfer when nothing arrived for `timeout` seconds; otherwise checks again later.
  private func checkTimeout(_ identifier: Int) {
    let idle: TimeInterval? = transfers.withLock { transfers in
      guard let transfer = transfers[identifier] else { return nil }
      return Double(DispatchTime.now().uptimeNanoseconds - transfer.lastActivity.uptimeNanoseconds)
        / 1e9
    }
    guard let idle else { return }
    if idle >= timeout {
      finish(identifier, with: .error(NetworkFetcherError.timedOut))
    } else {
      scheduleTimeoutCheck(identifier, after: timeout - idle)
    }
  }

  // MARK: - Mapping

  /// The failure a response means before its body arrives: a non-HTTP answer,
  /// a status outside 200–299, or a declared length above `limit`.
  private static func failure(for response: URLResponse, limit: Int) -> NetworkFetcherError? {
    guard let http = response as? HTTPURLResponse else { return .invalidResponse }
    guard (200..<300).contains(http.statusCode) else { return .statusCode(http.statusCode) }
    if http.expectedContentLength > Int64(limit) { return .responseTooLarge(limit: limit) }
    return nil
  }

  /// The result a transport error means.
  private static func result(for error: any Error) -> FutureResult<Data> {
    guard let urlError = error as? URLError else {
      return .error(NetworkFetcherError.transferFailed(String(describing: error)))
    }
    switch urlError.code {
    case .cancelled:
      return .cancelled
    case .timedOut:
      return .error(NetworkFetcherError.timedOut)
    case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .networkConnectionLost,
      .notConnectedToInternet, .secureConnectionFailed:
      return .error(NetworkFetcherError.connectionFailed(describe(urlError)))
    default:
      return .error(NetworkFetcherError.transferFailed(describe(urlError)))
    }
  }

  private static func describe(_ error: URLError) -> String {
    "\(error.localizedDescription) (URLError \(error.code.rawValue))"
  }
}
