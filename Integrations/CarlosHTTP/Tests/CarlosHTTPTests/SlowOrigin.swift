#if HTTP
import Carlos
import CarlosHTTPCaching
import Foundation
import Synchronization

/// An origin for cache tests that answers each request after a delay, and
/// counts its calls and how many it was answering at once.
final class SlowOrigin: Sendable {
  /// The answer to a request: given the request and how many came before it.
  typealias Reply = @Sendable (HTTPRequestKey, Int) throws -> HTTPResponse

  private struct Counts {
    var calls = 0
    var inFlight = 0
    var mostInFlight = 0
  }

  private let counts = Mutex(Counts())
  private let delay: @Sendable (Int) -> Duration
  private let reply: Reply

  /// An origin that takes `delay(index)` to answer its `index`th request (from 0)
  /// with `reply`.
  init(delay: @escaping @Sendable (Int) -> Duration, reply: @escaping Reply) {
    self.delay = delay
    self.reply = reply
  }

  /// An origin that takes `delay` to answer each request with `reply`.
  convenience init(delay: Duration = .milliseconds(300), reply: @escaping Reply) {
    self.init(delay: { _ in delay }, reply: reply)
  }

  /// The requests it was asked so far.
  var calls: Int { counts.withLock { $0.calls } }
  /// The requests it is answering now.
  var inFlight: Int { counts.withLock { $0.inFlight } }
  /// The most requests it was answering at once since it was created or last reset.
  var mostInFlight: Int { counts.withLock { $0.mostInFlight } }

  /// Starts counting ``mostInFlight`` again.
  func resetMostInFlight() {
    counts.withLock { $0.mostInFlight = $0.inFlight }
  }

  /// Returns once the origin has been asked `calls` requests (or after 30 seconds).
  func wait(forCalls calls: Int) async throws {
    for _ in 0..<3_000 where self.calls < calls { try await Task.sleep(for: .milliseconds(10)) }
  }

  /// The answer to `request`, after the delay; cancelling the caller ends the wait.
  func answer(_ request: HTTPRequestKey) async throws -> HTTPResponse {
    let index = counts.withLock { counts in
      counts.calls += 1
      counts.inFlight += 1
      counts.mostInFlight = max(counts.mostInFlight, counts.inFlight)
      return counts.calls - 1
    }
    defer { counts.withLock { $0.inFlight -= 1 } }
    try await Task.sleep(for: delay(index))
    return try reply(request, index)
  }

  /// The origin as a level an ``HTTPCache`` asks.
  var level: BasicFetcher<HTTPRequestKey, HTTPResponse> {
    BasicFetcher(name: "slow origin") { try await self.answer($0) }
  }

  /// A cache of this origin on a new memory level, by `policy`.
  func cache(policy: HTTPCachePolicy = .shared, clock: any CacheClock = SystemClock())
    -> HTTPCache<
      MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry>,
      BasicFetcher<
        HTTPRequestKey, HTTPResponse
      >
    >
  {
    MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry>(clock: clock)
      .caching(level, policy: policy, clock: clock)
  }
}

/// A 200 with `body` and `headers`.
func originResponse(_ body: String, _ headers: HTTPHeaderFields = [:]) -> HTTPResponse {
  HTTPResponse(status: 200, headers: headers, body: Data(body.utf8))
}

/// The answers of `count` concurrent calls of `answer`, in no particular order.
func concurrently<T: Sendable>(
  _ count: Int, _ answer: @escaping @Sendable (Int) async throws -> T
) async throws -> [T] {
  try await withThrowingTaskGroup(of: T.self) { group in
    for index in 0..<count { group.addTask { try await answer(index) } }
    return try await group.reduce(into: []) { $0.append($1) }
  }
}
#endif
