#if HTTP
import Carlos
import CarlosHTTP
import Foundation
import Synchronization

/// An origin level that stops waiting on an origin known to be down: once a
/// request fails to connect, the next ones fail at once with
/// ``HTTPFetcherError/connectionFailed(_:)`` (so a cache serves its
/// `stale-if-error` copies, or a 502, without waiting for a connect timeout),
/// and one request each `probeInterval` is let through to find the origin
/// again; its success closes the breaker.
public struct OriginBreaker<Base: CacheLevel>: Fetcher
where Base.KeyType == HTTPRequestKey, Base.OutputType == HTTPResponse {
  /// The level is keyed by requests.
  public typealias KeyType = HTTPRequestKey
  /// The level answers with whole responses.
  public typealias OutputType = HTTPResponse

  /// The level asked while the origin is not known to be down.
  public let base: Base
  /// How often a request is let through while the origin is down.
  public let probeInterval: Duration

  private let state: BreakerState

  /// Creates the breaker over `base`.
  public init(_ base: Base, probeInterval: Duration = .seconds(1)) {
    self.base = base
    self.probeInterval = probeInterval
    state = BreakerState()
  }

  /// Whether the origin is known to be down now.
  public var isOpen: Bool { state.isOpen }

  /// The base level's response to `request`, or an immediate failure while the
  /// origin is known to be down and it is not yet time to probe.
  public func get(_ request: HTTPRequestKey) -> Future<HTTPResponse> {
    guard state.mayAsk(now: .now) else {
      return Future(HTTPFetcherError.connectionFailed("the upstream is down (probing)"))
    }
    let state = self.state
    let interval = probeInterval
    return Future {
      do {
        let response = try await base.get(request).value
        state.succeeded()
        return response
      } catch HTTPFetcherError.connectionFailed(let reason) {
        state.failed(until: .now + interval)
        throw HTTPFetcherError.connectionFailed(reason)
      } catch is CancellationError {
        // Not an answer about the origin: another request may probe at once.
        state.abandoned()
        throw CancellationError()
      } catch {
        // Any other failure came from a connected origin.
        state.succeeded()
        throw error
      }
    }
  }
}

/// Whether an origin is known to be down, and when it may next be probed.
final class BreakerState: Sendable {
  private struct Down {
    var probeAt: ContinuousClock.Instant
  }

  private let down = Mutex<Down?>(nil)

  var isOpen: Bool { down.withLock { $0 != nil } }

  /// Whether a request may go to the origin at `now`: always while it is up; once
  /// per probe interval while it is down.
  func mayAsk(now: ContinuousClock.Instant) -> Bool {
    down.withLock { state in
      guard let current = state else { return true }
      guard now >= current.probeAt else { return false }
      // One probe at a time: the next waits for this one's outcome or a minute.
      state = Down(probeAt: now + .seconds(60))
      return true
    }
  }

  func succeeded() { down.withLock { $0 = nil } }

  func abandoned() {
    down.withLock { state in
      if state != nil { state = Down(probeAt: .now) }
    }
  }

  func failed(until probeAt: ContinuousClock.Instant) {
    down.withLock { $0 = Down(probeAt: probeAt) }
  }
}
#endif
