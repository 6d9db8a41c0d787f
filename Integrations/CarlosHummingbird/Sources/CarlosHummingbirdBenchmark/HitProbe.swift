#if Hummingbird
import Carlos
import CarlosHTTPCaching
import CarlosHummingbird
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The request context the probe hands the middleware, made without a channel.
struct ProbeContext: RequestContext {
  struct Source: RequestContextSource { let logger: Logger }
  var coreContext: CoreRequestContextStorage
  init(source: Source) { coreContext = .init(source: source) }
}

/// What a fresh hit costs without the network, one thread, nanoseconds per request
/// (best of 3): `CarlosHummingbirdBenchmark --probe [ITERATIONS] [ROW]`. Three rows:
/// the constant route called straight (`route`), `HTTPCache.response(for:askingOrigin:)`
/// on a memory level (`cache`), and `ResponseCacheMiddleware.handle` in front of the
/// route (`middleware`); ROW runs one of them alone (for `valgrind --tool=callgrind`).
func runHitProbe(iterations: Int, row: String?) async throws {
  let body = ByteBuffer(repeating: UInt8(ascii: "x"), count: 1024)
  let context = ProbeContext(source: .init(logger: Logger(label: "probe")))
  let requests = (0..<1000).map { index in
    Request(
      head: HTTPRequest(
        method: .get, scheme: "http", authority: "127.0.0.1:8080", path: "/cached/\(index)",
        headerFields: [.userAgent: "wrk"]),
      body: .init(buffer: ByteBuffer()))
  }
  @Sendable func route(_: Request, _: ProbeContext) async throws -> Response {
    Response(
      status: .ok,
      headers: [.contentType: "application/octet-stream", .cacheControl: "max-age=3600"],
      body: .init(byteBuffer: body))
  }

  func measure(_ name: String, row named: String, _ call: (Int) async throws -> Void) async throws {
    guard row == nil || row == named else { return }
    var best = Duration.seconds(Int.max)
    for _ in 0..<3 {
      let start = ContinuousClock.now
      for index in 0..<iterations { try await call(index % requests.count) }
      best = min(best, ContinuousClock.now - start)
    }
    let nanoseconds =
      Double(best.components.seconds) * 1e9 + Double(best.components.attoseconds) / 1e9
    print("\(name): \(Int((nanoseconds / Double(iterations)).rounded())) ns per request")
  }

  try await measure("route alone", row: "route") { _ = try await route(requests[$0], context) }

  let unused = BasicFetcher<HTTPRequestKey, CarlosHTTPCaching.HTTPResponse>(name: "route") { _ in
    throw CancellationError()
  }
  let cache = HTTPCache(
    storage: MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry>(capacity: 64 << 20), origin: unused)
  let stored = CarlosHTTPCaching.HTTPResponse(
    status: 200,
    headers: ["Content-Type": "application/octet-stream", "Cache-Control": "max-age=3600"],
    body: Data(repeating: UInt8(ascii: "x"), count: 1024))
  let keys = requests.map {
    HTTPRequestKey(
      URL(string: "http://127.0.0.1:8080" + ($0.head.path ?? "/"))!, headers: ["User-Agent": "wrk"])
  }
  for key in keys { _ = try await cache.response(for: key) { _ in stored } }
  try await measure("HTTPCache.response(for:askingOrigin:), fresh hit", row: "cache") {
    let answer = try await cache.response(for: keys[$0]) { _ in throw CancellationError() }
    precondition(answer.status == 200)
  }

  let middleware = ResponseCacheMiddleware<
    ProbeContext, MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry>
  >(storage: MemoryCacheLevel(capacity: 64 << 20))
  for request in requests {
    _ = try await middleware.handle(request, context: context, next: route)
  }
  try await measure("ResponseCacheMiddleware, fresh hit", row: "middleware") {
    let response = try await middleware.handle(requests[$0], context: context) { _, _ in
      throw CancellationError()
    }
    precondition(response.status == .ok)
  }
}
#endif
