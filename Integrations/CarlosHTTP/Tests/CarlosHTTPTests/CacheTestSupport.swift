#if HTTP
import AsyncHTTPClient
import Carlos
import CarlosHTTP
import Foundation
import Synchronization

/// One cache test: a server answering with `reply` (given the request, how many
/// requests came before it, and the shared clock's time for `Date`), an
/// ``HTTPCache`` on a memory level, both on one manual clock. With
/// `redirects: .passOn` the fetcher and its client pass redirects on.
func withCache(
  policy: HTTPCachePolicy = .shared,
  redirects: HTTPFetcher.Redirects = .follow,
  _ reply: @escaping @Sendable (TestServer.Request, Int, Date) -> TestServer.Reply,
  run body: (
    TestServer, HTTPCache<MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry>, HTTPFetcher>,
    MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry>, ManualClock
  ) async throws -> Void
) async throws {
  let clock = ManualClock(start: Date(timeIntervalSince1970: 1_750_000_000))
  let count = Mutex(0)
  var configuration = HTTPClient.Configuration()
  if redirects == .passOn { configuration.redirectConfiguration = .disallow }
  try await withServer(configuration: configuration) { request in
    let index = count.withLock { value in
      defer { value += 1 }
      return value
    }
    return reply(request, index, clock.now())
  } run: { server, client in
    let memory = MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry>(clock: clock)
    let cache = memory.caching(
      HTTPFetcher(client: client, redirects: redirects), policy: policy, clock: clock)
    try await body(server, cache, memory, clock)
  }
}

/// A 200 with `body`, a `Date` of `now` and `headers`.
func dated(_ body: String, _ now: Date, _ headers: [(String, String)]) -> TestServer.Reply {
  .respond(status: 200, headers: [("Date", HTTPDate.format(now))] + headers, body: Data(body.utf8))
}

/// The body as UTF-8 text.
func text(_ response: HTTPResponse) -> String {
  String(decoding: response.body, as: UTF8.self)
}
#endif
