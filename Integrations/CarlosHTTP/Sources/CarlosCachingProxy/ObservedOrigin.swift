#if HTTP
import Carlos
import CarlosHTTP
import Synchronization

/// An origin level that counts the requests it sends in ``CachingProxyCounters``
/// and tells the request being answered (through ``RequestActivity/current``)
/// that it asked the origin, and whether that failed: how the proxy's access
/// log and counters tell a hit from a miss or a stale answer.
public struct ObservedOrigin<Base: CacheLevel>: Fetcher
where Base.KeyType == HTTPRequestKey, Base.OutputType == HTTPResponse {
  /// The level is keyed by requests.
  public typealias KeyType = HTTPRequestKey
  /// The level answers with whole responses.
  public typealias OutputType = HTTPResponse

  /// The level asked.
  public let base: Base
  /// Where fetches and failures are counted.
  public let counters: CachingProxyCounters

  /// Creates the level over `base`, counting in `counters`.
  public init(_ base: Base, counters: CachingProxyCounters) {
    self.base = base
    self.counters = counters
  }

  /// The base level's response to `request`, counted.
  public func get(_ request: HTTPRequestKey) -> Future<HTTPResponse> {
    let activity = RequestActivity.current
    let counters = self.counters
    return Future {
      counters.add(.originFetches)
      activity?.asked()
      do {
        return try await base.get(request).value
      } catch {
        if !(error is CancellationError) {
          counters.add(.originFailures)
          activity?.failed()
        }
        throw error
      }
    }
  }
}

/// What answering one client request took: whether the origin was asked and
/// whether it failed. Set for the request's task with ``$current``.
public final class RequestActivity: Sendable {
  /// The activity of the request the current task answers, if any.
  @TaskLocal public static var current: RequestActivity?

  private let state = Mutex<(asked: Bool, failed: Bool)>((false, false))

  /// A request that has not asked the origin yet.
  public init() {}

  /// Whether the origin was asked.
  public var askedOrigin: Bool { state.withLock { $0.asked } }
  /// Whether asking the origin failed.
  public var originFailed: Bool { state.withLock { $0.failed } }

  func asked() { state.withLock { $0.asked = true } }
  func failed() { state.withLock { $0.failed = true } }
}
#endif
