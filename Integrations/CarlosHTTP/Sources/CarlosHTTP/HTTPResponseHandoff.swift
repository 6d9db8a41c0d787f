#if HTTP
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
///
/// A handoff can also let its caller observe a response the fetcher collects:
/// the first response that ``shouldObserve`` accepts (and that is not handed
/// over) goes to the handoff's `whenObserved` as soon as its head arrives, with
/// a copy of the body as it is read, while the fetcher still collects the whole
/// body and answers with it as usual. A caller that serves its client this way
/// serves it while the body arrives, not after.
public final class HTTPResponseHandoff: Sendable {
  /// The handoff of the current task, if any.
  @TaskLocal public static var current: HTTPResponseHandoff?

  /// The header field that marks a handed-over response (not to be sent on).
  public static let field = "X-Carlos-Handoff"

  /// A response handed over or observed: its head as the origin sent it, and
  /// its body (for an observed one, a copy).
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

  /// Whether a response with this status and these fields (and the declared
  /// length, if any), which the fetcher collects, is to be observed.
  public let shouldObserve:
    @Sendable (_ status: Int, _ headers: HTTPHeaderFields, _ length: Int?) -> Bool

  private let handed = Mutex<[String: Handed]>([:])
  private let counter = Atomic<Int>(0)
  /// Whether the next response ``shouldObserve`` accepts is still to be observed.
  private let observing = Atomic<Bool>(true)
  private let whenObserved: @Sendable (Handed) -> Void

  /// A handoff that streams what `shouldStream` says, and every response above
  /// the fetcher's limit, and calls `whenObserved` with the first collected
  /// response that `shouldObserve` accepts, as soon as its head arrives (from the
  /// fetching task, which goes on collecting).
  ///
  /// The fetcher does not wait for the observed copy of the body to be read:
  /// the chunks not read yet are held, at most the body being collected
  /// (bounded by the fetcher's ``HTTPFetcher/maximumResponseSize``, past which
  /// the fetcher stops collecting and answers with the head and
  /// `Cache-Control: no-store`, and the copy reads the rest from the upstream
  /// at its reader's pace). The copy ends with the body, or throws where the
  /// transfer failed, was cancelled or timed out: it is then incomplete.
  /// Releasing it frees what it holds.
  public init(
    shouldStream:
      @escaping @Sendable (_ status: Int, _ headers: HTTPHeaderFields, _ length: Int?) ->
      Bool = { _, _, _ in false },
    shouldObserve:
      @escaping @Sendable (_ status: Int, _ headers: HTTPHeaderFields, _ length: Int?) ->
      Bool = { _, _, _ in false },
    whenObserved: @escaping @Sendable (Handed) -> Void = { _ in }
  ) {
    self.shouldStream = shouldStream
    self.shouldObserve = shouldObserve
    self.whenObserved = whenObserved
  }

  /// Ends observing: no fetch that begins from now on is observed. What the
  /// caller does once its own answer has arrived, so that a later fetch in its
  /// task (a background revalidation, say) is not taken for it.
  public func stopObserving() {
    observing.store(false, ordering: .releasing)
  }

  /// The copy to fill with the body of the response whose head is `head` (and
  /// whose declared length is `length`), when it is to be observed.
  func observe(_ head: HTTPResponse, length: Int?) -> HTTPResponseTee? {
    guard shouldObserve(head.status, head.headers, length),
      observing.exchange(false, ordering: .acquiringAndReleasing)
    else { return nil }
    let tee = HTTPResponseTee()
    whenObserved(Handed(head: head, body: HTTPBodyReader(observing: tee)))
    return tee
  }

  /// The answer to give for `head`, whose body went to the observer only (it
  /// passed the fetcher's limit): the head with `Cache-Control: no-store`, so
  /// that no cache stores it.
  func observedOnly(_ head: HTTPResponse) -> HTTPResponse {
    var fields = head.headers
    fields.add(name: "Cache-Control", value: "no-store")
    return HTTPResponse(status: head.status, headers: fields)
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
#endif
