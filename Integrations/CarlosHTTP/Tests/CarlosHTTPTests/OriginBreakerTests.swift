#if HTTP
import Carlos
import CarlosCachingProxy
import CarlosHTTP
import Foundation
import Synchronization
import Testing

@Suite("OriginBreaker")
struct OriginBreakerTests {
  /// An origin that is down (connections fail) until it is brought up.
  private final class Origin: Fetcher {
    typealias KeyType = HTTPRequestKey
    typealias OutputType = HTTPResponse
    let calls = Mutex(0)
    let up = Mutex(false)

    func get(_ key: HTTPRequestKey) -> Future<HTTPResponse> {
      calls.withLock { $0 += 1 }
      return up.withLock { $0 }
        ? Future(HTTPResponse(status: 200)) : Future(HTTPFetcherError.connectionFailed("refused"))
    }
  }

  private let request = HTTPRequestKey(URL(string: "http://127.0.0.1:1/x")!)

  @Test(
    "Once a connection fails, requests fail at once; one probe per interval finds the origin again")
  func failsFastAndProbes() async throws {
    let origin = Origin()
    let breaker = OriginBreaker(origin, probeInterval: .seconds(2))
    await #expect(throws: HTTPFetcherError.self) { try await breaker.get(request).value }
    #expect(breaker.isOpen)
    for _ in 0..<10 {
      await #expect(throws: HTTPFetcherError.self) { try await breaker.get(request).value }
    }
    #expect(origin.calls.withLock { $0 } == 1, "the origin is not asked while it is known down")
    try await Task.sleep(for: .milliseconds(2200))
    await #expect(throws: HTTPFetcherError.self) { try await breaker.get(request).value }
    #expect(origin.calls.withLock { $0 } == 2, "one probe after the interval")
    origin.up.withLock { $0 = true }
    try await Task.sleep(for: .milliseconds(2200))
    #expect(try await breaker.get(request).value.status == 200)
    #expect(!breaker.isOpen)
    #expect(try await breaker.get(request).value.status == 200)
    #expect(origin.calls.withLock { $0 } == 4)
  }

  @Test("A stored stale-if-error response is served without asking an origin known to be down")
  func staleIfErrorAtOnce() async throws {
    let origin = Origin()
    origin.up.withLock { $0 = true }
    let cache = MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry>(capacity: 1 << 20)
      .caching(OriginBreaker(StaleFriendly(origin), probeInterval: .seconds(60)), policy: .cdn)
    let page = HTTPRequestKey(URL(string: "http://127.0.0.1:1/page")!)
    let cold = HTTPRequestKey(URL(string: "http://127.0.0.1:1/cold")!)
    #expect(try await cache.get(page).value.status == 200)
    origin.up.withLock { $0 = false }
    try await Task.sleep(for: .milliseconds(1100))
    await #expect(throws: HTTPFetcherError.self) { try await cache.get(cold).value }
    let calls = origin.calls.withLock { $0 }
    let stale = try await cache.get(page).value
    #expect(stale.status == 200)
    #expect(stale.body == Data("page".utf8))
    #expect(origin.calls.withLock { $0 } == calls, "the known-down origin is not asked")
  }

  /// Answers 200 "page", fresh for 1 s and usable for a minute after the origin fails.
  private struct StaleFriendly: Fetcher {
    typealias KeyType = HTTPRequestKey
    typealias OutputType = HTTPResponse
    let base: Origin

    init(_ base: Origin) { self.base = base }

    func get(_ key: HTTPRequestKey) -> Future<HTTPResponse> {
      Future {
        var response = try await base.get(key).value
        response.headers = ["Cache-Control": "max-age=1, stale-if-error=60"]
        response.body = Data("page".utf8)
        return response
      }
    }
  }
}
#endif
