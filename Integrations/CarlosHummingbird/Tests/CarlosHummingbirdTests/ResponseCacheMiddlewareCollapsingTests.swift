#if Hummingbird
import Carlos
import CarlosHTTPCaching
import CarlosHummingbird
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("ResponseCacheMiddleware request collapsing")
struct ResponseCacheMiddlewareCollapsingTests {
  @Test("50 concurrent requests for a slow cached route run the route once")
  func slowRouteRunsOnce() async throws {
    let calls = RouteCalls()
    let router = Router(context: BasicRequestContext.self)
    router.add(
      middleware: ResponseCacheMiddleware(
        storage: MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry>(capacity: 1 << 20)))
    router.get("/slow") { _, _ in
      let call = calls.count("/slow")
      try await Task.sleep(for: .milliseconds(300))
      return Response(
        status: .ok, headers: [.cacheControl: "max-age=60"],
        body: .init(byteBuffer: ByteBuffer(string: "slow \(call)")))
    }
    try await Application(router: router).test(.router) { client in
      let bodies = try await withThrowingTaskGroup(of: String.self) { group in
        for _ in 0..<50 {
          group.addTask {
            try await client.execute(uri: "/slow", method: .get) { String(buffer: $0.body) }
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(bodies == Array(repeating: "slow 0", count: 50))
      #expect(calls["/slow"] == 1)
    }
  }
}
#endif
