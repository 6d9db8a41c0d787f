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
/// for the first response that ``shouldObserve`` accepts (and that is not
/// handed over), ``observed()`` gives the head as soon as it arrives and a copy
/// of the body as it is read, while the fetcher still collects the whole body
/// and answers with it as usual. A caller that serves its client this way
/// serves it while the body arrives, not after (see ``observed()``).
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
  /// length, if any), which the fetcher collects, is to be observed through
  /// ``observed()``.
  public let shouldObserve:
    @Sendable (_ status: Int, _ headers: HTTPHeaderFields, _ length: Int?) -> Bool

  /// Where the observed response stands.
  private enum Observation {
    /// None yet; the caller may be waiting in ``observed()``.
    case open(CheckedContinuation<Handed?, Never>?)
    /// One, not yet taken by ``observed()``.
    case observed(Handed)
    /// Taken, or observing stopped.
    case closed
  }

  private let handed = Mutex<[String: Handed]>([:])
  private let counter = Atomic<Int>(0)
  private let observation = Mutex(Observation.open(nil))
  private let whenObserved: (@Sendable (Handed) -> Void)?

  /// A handoff that streams what `shouldStream` says, and every response above
  /// the fetcher's limit, and lets the caller observe the first collected
  /// response that `shouldObserve` accepts: through ``observed()``, or, when
  /// `whenObserved` is given, by calling it with that response as soon as its
  /// head arrives (from the fetching task; ``observed()`` then returns `nil`).
  public init(
    shouldStream:
      @escaping @Sendable (_ status: Int, _ headers: HTTPHeaderFields, _ length: Int?) ->
      Bool = { _, _, _ in false },
    shouldObserve:
      @escaping @Sendable (_ status: Int, _ headers: HTTPHeaderFields, _ length: Int?) ->
      Bool = { _, _, _ in false },
    whenObserved: (@Sendable (Handed) -> Void)? = nil
  ) {
    self.shouldStream = shouldStream
    self.shouldObserve = shouldObserve
    self.whenObserved = whenObserved
  }

  /// The response a fetch in this handoff's task began to collect with
  /// ``shouldObserve``'s consent: its head as the origin sent it, at once, and
  /// a copy of its body as the fetcher reads it. Returns when such a fetch
  /// begins, or `nil` when ``stopObserving()`` is called (or the waiting task
  /// is cancelled) first. At most one response per handoff is observed, and it
  /// is returned once.
  ///
  /// The fetcher does not wait for the copy to be read: the chunks not read
  /// yet are held, at most the body being collected (bounded by the fetcher's
  /// ``HTTPFetcher/maximumResponseSize``, past which the fetcher stops
  /// collecting and answers with the head and `Cache-Control: no-store`, and
  /// the copy reads the rest from the upstream at its reader's pace). The copy
  /// ends with the body, or throws where the transfer failed, was cancelled or
  /// timed out: it is then incomplete. Releasing it frees what it holds.
  public func observed() async -> Handed? {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let ready = observation.withLock { state -> Handed?? in
          switch state {
          case .open:
            if Task.isCancelled {
              state = .closed
              return .some(nil)
            }
            state = .open(continuation)
            return nil
          case .observed(let handed):
            state = .closed
            return .some(handed)
          case .closed:
            return .some(nil)
          }
        }
        if let ready { continuation.resume(returning: ready) }
      }
    } onCancel: {
      stopObserving()
    }
  }

  /// Ends observing: no fetch that begins from now on is observed, and a
  /// caller waiting in ``observed()`` gets `nil` unless one began already. What
  /// the caller does once its own answer has arrived, so that a later fetch in
  /// its task (a background revalidation, say) is not taken for it.
  public func stopObserving() {
    let waiting = observation.withLock { state -> CheckedContinuation<Handed?, Never>? in
      guard case .open(let waiting) = state else { return nil }
      state = .closed
      return waiting
    }
    waiting?.resume(returning: nil)
  }

  /// The copy to fill with the body of the response whose head is `head` (and
  /// whose declared length is `length`), when it is to be observed.
  func observe(_ head: HTTPResponse, length: Int?) -> HTTPResponseTee? {
    guard shouldObserve(head.status, head.headers, length) else { return nil }
    let tee = HTTPResponseTee()
    let handed = Handed(head: head, body: HTTPBodyReader(observing: tee))
    let direct = whenObserved != nil
    let taken = observation.withLock { state -> (CheckedContinuation<Handed?, Never>?)? in
      guard case .open(let waiting) = state else { return nil }
      state = waiting == nil && !direct ? .observed(handed) : .closed
      return .some(waiting)
    }
    guard let taken else { return nil }
    if let whenObserved {
      taken?.resume(returning: nil)
      whenObserved(handed)
    } else {
      taken?.resume(returning: handed)
    }
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
