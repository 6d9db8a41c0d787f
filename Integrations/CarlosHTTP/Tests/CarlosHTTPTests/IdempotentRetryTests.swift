#if HTTP
import Carlos
import CarlosCachingProxy
import CarlosHTTP
import Foundation
import Synchronization
import Testing

@Suite("IdempotentRetry")
struct IdempotentRetryTests {
  /// A level that fails its first `failures` gets with `error`, then answers 200.
  private final class Flaky: Fetcher {
    typealias KeyType = HTTPRequestKey
    typealias OutputType = HTTPResponse
    let calls = Mutex(0)
    let failures: Int
    let error: HTTPFetcherError

    init(failures: Int, error: HTTPFetcherError) {
      self.failures = failures
      self.error = error
    }

    func get(_ key: HTTPRequestKey) -> Future<HTTPResponse> {
      let call = calls.withLock { count in
        count += 1
        return count
      }
      return call <= failures ? Future(error) : Future(HTTPResponse(status: 200))
    }
  }

  @Test(
    "An idempotent request whose connection failed is sent once more; a POST is not, nor a timeout")
  func retries() async throws {
    let url = URL(string: "http://127.0.0.1:1/x")!
    let closed = HTTPFetcherError.connectionFailed("closed")
    let once = Flaky(failures: 1, error: closed)
    #expect(try await IdempotentRetry(once).get(HTTPRequestKey(url)).value.status == 200)
    #expect(once.calls.withLock { $0 } == 2)
    let twice = Flaky(failures: 2, error: closed)
    await #expect(throws: closed) {
      try await IdempotentRetry(twice).get(HTTPRequestKey(url)).value
    }
    let post = Flaky(failures: 1, error: closed)
    await #expect(throws: closed) {
      try await IdempotentRetry(post).get(HTTPRequestKey(url, method: "POST")).value
    }
    let timedOut = HTTPFetcherError.timedOut(.seconds(1))
    let slow = Flaky(failures: 1, error: timedOut)
    await #expect(throws: timedOut) {
      try await IdempotentRetry(slow).get(HTTPRequestKey(url)).value
    }
  }
}
#endif
