#if Hummingbird
import Carlos
import CarlosHTTPCaching
import CarlosHummingbird
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// How many times each route ran, by path.
final class RouteCalls: Sendable {
  private let counts = Mutex<[String: Int]>([:])

  /// Counts one call of `path` and returns how many came before it.
  func count(_ path: String) -> Int {
    counts.withLock { counts in
      defer { counts[path, default: 0] += 1 }
      return counts[path, default: 0]
    }
  }

  /// The calls of `path` so far.
  subscript(path: String) -> Int { counts.withLock { $0[path, default: 0] } }
}

/// Routes that count their calls, behind a response cache on `storage`:
/// - `/fresh`: fresh for 60 s; `PUT /fresh` changes it (a 204);
/// - `/tagged`: fresh for 10 s with an `ETag`, a 304 to its own `If-None-Match`;
/// - `/vary`: fresh for 60 s, varying on `Accept-Language`;
/// - `/private`: `private`, fresh for 60 s; `/plain`: no caching fields, streamed in three parts;
/// - `/swr`: fresh for 1 s, then `stale-while-revalidate` for 60 s.
func cachedRouter(
  _ storage: some CacheLevel<HTTPCacheKey, HTTPCacheEntry>, clock: any CacheClock,
  calls: RouteCalls
) -> Router<BasicRequestContext> {
  let router = Router()
  router.add(middleware: ResponseCacheMiddleware(storage: storage, clock: clock))
  @Sendable func reply(_ fields: HTTPFields, _ text: String) -> Response {
    Response(status: .ok, headers: fields, body: .init(byteBuffer: ByteBuffer(string: text)))
  }
  router.get("/fresh") { _, _ in
    reply([.cacheControl: "max-age=60"], "fresh \(calls.count("/fresh"))")
  }
  router.put("/fresh") { _, _ in
    _ = calls.count("PUT /fresh")
    return Response(status: .noContent)
  }
  router.get("/tagged") { request, _ in
    _ = calls.count("/tagged")
    if request.headers[.ifNoneMatch] == "\"v1\"" {
      _ = calls.count("/tagged 304")
      return Response(
        status: .notModified, headers: [.eTag: "\"v1\"", .cacheControl: "max-age=10"])
    }
    return reply([.eTag: "\"v1\"", .cacheControl: "max-age=10"], "tagged")
  }
  router.get("/vary") { request, _ in
    let language = request.headers[.acceptLanguage] ?? "none"
    return reply(
      [.cacheControl: "max-age=60", .vary: "Accept-Language"],
      "\(language) \(calls.count("/vary"))")
  }
  router.get("/private") { _, _ in
    reply([.cacheControl: "private, max-age=60"], "mine \(calls.count("/private"))")
  }
  router.get("/plain") { _, _ in
    let call = calls.count("/plain")
    return Response(
      status: .ok,
      body: .init(contentsOf: ["plain ", "\(call) ", "streamed"].map { ByteBuffer(string: $0) }))
  }
  router.get("/swr") { _, _ in
    reply(
      [.cacheControl: "max-age=1, stale-while-revalidate=60"],
      "swr \(calls.count("/swr"))")
  }
  return router
}

@Suite("ResponseCacheMiddleware")
struct ResponseCacheMiddlewareTests {
  let clock = ManualClock(start: Date(timeIntervalSince1970: 1_750_000_000))
  let calls = RouteCalls()

  /// A memory level on the test's clock.
  func memory() -> MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry> {
    MemoryCacheLevel(capacity: 1 << 20, clock: clock)
  }

  /// Runs `body` with a client of an application over `storage`.
  func withClient(
    _ storage: some CacheLevel<HTTPCacheKey, HTTPCacheEntry>,
    _ body: @Sendable (any TestClientProtocol) async throws -> Void
  ) async throws {
    let app = Application(router: cachedRouter(storage, clock: clock, calls: calls))
    try await app.test(.router, body)
  }

  /// The body of a GET of `uri`, after checking its status.
  func get(
    _ uri: String, _ client: any TestClientProtocol, headers: HTTPFields = [:],
    status: HTTPResponse.Status = .ok
  ) async throws -> String {
    try await client.execute(uri: uri, method: .get, headers: headers) { response in
      #expect(response.status == status)
      return String(buffer: response.body)
    }
  }

  @Test("a fresh stored response answers without calling the route, with an Age field")
  func freshIsServedFromStorage() async throws {
    try await withClient(memory()) { client async throws in
      #expect(try await get("/fresh", client) == "fresh 0")
      clock.advance(by: .seconds(5))
      try await client.execute(uri: "/fresh", method: .get) { response in
        #expect(String(buffer: response.body) == "fresh 0")
        #expect(response.headers[.age] == "5")
        #expect(response.headers[.contentLength] == "7")
      }
      #expect(calls["/fresh"] == 1)
    }
  }

  @Test("a stale response is asked of the route again")
  func staleIsFetchedAgain() async throws {
    try await withClient(memory()) { client async throws in
      #expect(try await get("/fresh", client) == "fresh 0")
      clock.advance(by: .seconds(61))
      #expect(try await get("/fresh", client) == "fresh 1")
      #expect(try await get("/fresh", client) == "fresh 1")
      #expect(calls["/fresh"] == 2)
    }
  }

  @Test("a stale response is revalidated with the cache's own validators, and a 304 serves it")
  func staleIsRevalidated() async throws {
    try await withClient(memory()) { client async throws in
      #expect(try await get("/tagged", client) == "tagged")
      clock.advance(by: .seconds(11))
      try await client.execute(uri: "/tagged", method: .get) { response in
        #expect(response.status == .ok)
        #expect(String(buffer: response.body) == "tagged")
        #expect(response.headers[.age] == "0")
      }
      #expect(calls["/tagged"] == 2)
      #expect(calls["/tagged 304"] == 1)
    }
  }

  @Test("a client's If-None-Match that the stored response satisfies gets a 304 from the cache")
  func conditionalRequestIsAnswered() async throws {
    try await withClient(memory()) { client async throws in
      _ = try await get("/tagged", client)
      let answer = try await get(
        "/tagged", client, headers: [.ifNoneMatch: "\"v1\""], status: .notModified)
      #expect(answer.isEmpty)
      #expect(calls["/tagged"] == 1)
    }
  }

  @Test("Vary selects among variants stored under one URI")
  func varyKeepsVariants() async throws {
    try await withClient(memory()) { client async throws in
      #expect(try await get("/vary", client, headers: [.acceptLanguage: "fr"]) == "fr 0")
      #expect(try await get("/vary", client, headers: [.acceptLanguage: "de"]) == "de 1")
      #expect(try await get("/vary", client, headers: [.acceptLanguage: "fr"]) == "fr 0")
      #expect(try await get("/vary", client, headers: [.acceptLanguage: "de"]) == "de 1")
      #expect(calls["/vary"] == 2)
    }
  }

  @Test("a 2xx answer to an unsafe method removes the stored responses of its URI")
  func unsafeMethodInvalidates() async throws {
    try await withClient(memory()) { client async throws in
      #expect(try await get("/fresh", client) == "fresh 0")
      try await client.execute(uri: "/fresh", method: .put) { #expect($0.status == .noContent) }
      #expect(try await get("/fresh", client) == "fresh 1")
      #expect(calls["PUT /fresh"] == 1)
    }
  }

  @Test("a private response is not stored by the shared cache")
  func privateIsNotStored() async throws {
    try await withClient(memory()) { client async throws in
      #expect(try await get("/private", client) == "mine 0")
      #expect(try await get("/private", client) == "mine 1")
    }
  }

  @Test("a response that may not be stored is passed on as the route streamed it")
  func plainIsPassedOn() async throws {
    try await withClient(memory()) { client async throws in
      #expect(try await get("/plain", client) == "plain 0 streamed")
      #expect(try await get("/plain", client) == "plain 1 streamed")
    }
  }

  @Test("stale-while-revalidate is revalidated before it is served")
  func staleWhileRevalidateWaits() async throws {
    try await withClient(memory()) { client async throws in
      #expect(try await get("/swr", client) == "swr 0")
      clock.advance(by: .seconds(2))
      #expect(try await get("/swr", client) == "swr 1")
      #expect(calls["/swr"] == 2)
    }
  }

  @Test("HEAD is answered from the stored GET response, with its length and no body")
  func headFromStoredGet() async throws {
    try await withClient(memory()) { client async throws in
      _ = try await get("/fresh", client)
      try await client.execute(uri: "/fresh", method: .head) { response in
        #expect(response.status == .ok)
        #expect(response.body.readableBytes == 0)
        #expect(response.headers[.contentLength] == "7")
      }
      #expect(calls["/fresh"] == 1)
    }
  }

  @Test("two instances on one storage share what either stored")
  func instancesShareStorage() async throws {
    let shared = memory()
    try await withClient(MemoryCacheLevel(capacity: 1 << 20, clock: clock) >>> shared) {
      client async throws in
      #expect(try await get("/fresh", client) == "fresh 0")
    }
    try await withClient(MemoryCacheLevel(capacity: 1 << 20, clock: clock) >>> shared) {
      client async throws in
      #expect(try await get("/fresh", client) == "fresh 0")
    }
    #expect(calls["/fresh"] == 1)
  }

  @Test("many concurrent clients of a few URIs get every answer whole")
  func concurrentClients() async throws {
    try await withClient(memory()) { client async throws in
      try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<400 {
          group.addTask {
            let uri = ["/fresh", "/vary", "/plain", "/tagged"][index % 4]
            let body = try await get(uri, client, headers: [.acceptLanguage: "fr"])
            #expect(
              body.hasPrefix("fresh ") || body.hasPrefix("fr ") || body.hasSuffix(" streamed")
                || body == "tagged")
          }
        }
        try await group.waitForAll()
      }
      #expect(calls["/plain"] == 100)
    }
  }
}
#endif
