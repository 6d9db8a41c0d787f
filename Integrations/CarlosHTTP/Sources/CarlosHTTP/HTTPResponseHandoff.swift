import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// Where an ``HTTPFetcher`` hands over a response whose body it should not hold
/// in memory (one the caller will not store, or one above the fetcher's
/// ``HTTPFetcher/maximumResponseSize``), so that the caller streams the body to
/// its own client while it arrives, at any size, instead of the fetcher
/// collecting it (or failing with ``HTTPFetcherError/responseTooLarge(limit:)``).
///
/// Set one for a task with ``$current``; every fetch made in that task (and in
/// the tasks it starts) asks ``shouldStream``. The fetcher then answers at once
/// with the response's head, `Cache-Control: no-store` added so that no cache
/// stores the bodiless answer, and a ``field`` naming the handoff; the caller
/// finds the body with ``body(for:)``. A caller that never takes the body lets
/// the upstream connection go when the handoff is released.
public final class HTTPResponseHandoff: Sendable {
  /// The handoff of the current task, if any.
  @TaskLocal public static var current: HTTPResponseHandoff?

  /// The header field that marks a handed-over response (not to be sent on).
  public static let field = "X-Carlos-Handoff"

  /// A response handed over: its head as the origin sent it, and its body.
  public struct Handed: Sendable {
    /// The status and header fields as the origin sent them; no body.
    public let head: HTTPResponse
    /// The body, from its first byte.
    public let body: HTTPBodyReader
  }

  /// Whether a response with this status and these fields (and the declared
  /// length, if any) is to be streamed even below the fetcher's limit.
  public let shouldStream:
    @Sendable (_ status: Int, _ headers: HTTPHeaderFields, _ length: Int?) -> Bool

  private let handed = Mutex<[String: Handed]>([:])
  private let counter = Atomic<Int>(0)

  /// A handoff that streams what `shouldStream` says, and every response above
  /// the fetcher's limit.
  public init(
    shouldStream:
      @escaping @Sendable (_ status: Int, _ headers: HTTPHeaderFields, _ length: Int?) ->
      Bool = { _, _, _ in false }
  ) {
    self.shouldStream = shouldStream
  }

  /// Takes the body of `response`, when it is a response this handoff received
  /// (its ``field`` says so); the head returned is the origin's, without the
  /// marks the fetcher added.
  public func body(for response: HTTPResponse) -> Handed? {
    guard let token = response.headers[Self.field] else { return nil }
    return handed.withLock { $0.removeValue(forKey: token) }
  }

  /// Keeps `handed` and returns the response the fetcher answers with.
  func hand(_ handed: Handed) -> HTTPResponse {
    let token = String(counter.add(1, ordering: .relaxed).newValue)
    self.handed.withLock { $0[token] = handed }
    var fields = handed.head.headers
    fields.add(name: "Cache-Control", value: "no-store")
    fields.add(name: Self.field, value: token)
    return HTTPResponse(status: handed.head.status, headers: fields)
  }
}
