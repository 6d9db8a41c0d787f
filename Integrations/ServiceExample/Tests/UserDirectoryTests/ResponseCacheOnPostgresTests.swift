import Carlos
import CarlosHTTPCaching
import CarlosHummingbird
import CarlosPostgres
import Foundation
import Hummingbird
import HummingbirdTesting
import PostgresNIO
import Synchronization
import Testing

/// How many times a route ran.
final class Calls: Sendable {
  private let count = Atomic(0)

  /// Counts one call and returns how many there were with it.
  func add() -> Int { count.add(1, ordering: .relaxed).newValue }

  /// The calls so far.
  var value: Int { count.load(ordering: .relaxed) }
}

@Suite("ResponseCacheMiddleware over memory >>> postgres")
struct ResponseCacheOnPostgresTests {
  /// An application whose `/report` route counts its calls in `calls` and is fresh for
  /// 60 s (`PUT /report` changes it), behind a response cache over its own memory level
  /// and the shared table.
  func application(_ client: PostgresClient, namespace: String, calls: Calls)
    throws -> some ApplicationProtocol
  {
    let postgres = try PostgresCacheLevel<HTTPCacheKey>(
      client: client, options: PostgresCacheOptions(namespace: namespace))
    let storage =
      MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry>(capacity: 1 << 20)
      >>> (postgres =>> JSONTransformer<HTTPCacheEntry>())
    let router = Router()
    router.add(middleware: ResponseCacheMiddleware(storage: storage))
    router.get("/report") { _, _ in
      let call = calls.add()
      return Response(
        status: .ok, headers: [.cacheControl: "max-age=60"],
        body: .init(byteBuffer: ByteBuffer(string: "report \(call)")))
    }
    router.put("/report") { _, _ in Response(status: .noContent) }
    return Application(router: router)
  }

  @Test("a response one instance stored answers the other from the shared table")
  func instancesShareResponses() async throws {
    let client = PostgresClient(configuration: try DatabaseURL.configuration(try databaseURL()))
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await client.run() }
      defer { group.cancelAll() }
      let namespace = "responses-\(UUID().uuidString.prefix(8))"
      let firstCalls = Calls()
      let secondCalls = Calls()
      let first = try application(client, namespace: namespace, calls: firstCalls)
      let second = try application(client, namespace: namespace, calls: secondCalls)
      func body(_ app: some ApplicationProtocol, _ method: HTTPRequest.Method = .get) async throws
        -> String
      {
        try await app.test(.router) { client in
          try await client.execute(uri: "/report", method: method) { String(buffer: $0.body) }
        }
      }
      #expect(try await body(first) == "report 1")
      #expect(try await body(second) == "report 1")
      #expect(secondCalls.value == 0)
      _ = try await body(first, .put)
      #expect(try await body(first) == "report 2")
      #expect(firstCalls.value == 2)
    }
  }
}
