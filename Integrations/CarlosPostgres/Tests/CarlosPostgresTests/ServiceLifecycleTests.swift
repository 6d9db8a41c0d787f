#if Postgres
import Carlos
import CarlosPostgres
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Testing

@Suite("PostgreSQL services in a ServiceGroup", .enabled(if: !PostgresTestServer.skipped))
struct ServiceLifecycleTests {
  @Test(
    "at graceful shutdown the writes in flight reach the server, and the listener stops listening"
  )
  func gracefulShutdown() async throws {
    let namespace = PostgresTestServer.namespace()
    let client = PostgresClient(
      configuration: try DatabaseURL.configuration(try PostgresTestServer.url()))
    // Generous: on a loaded machine 300 writes at once can wait past the 2 s default.
    let level = try PostgresCacheLevel<String>(
      client: client,
      options: PostgresCacheOptions(namespace: namespace, operationTimeout: .seconds(30)))
    let listener = PostgresInvalidationListener(client: client)
    let group = ServiceGroup(
      services: [client, level, listener], gracefulShutdownSignals: [], cancellationSignals: [],
      logger: Logger(label: "carlos-test", factory: { _ in SwiftLogNoOpLogHandler() }))
    let running = Task { try await group.run() }
    try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }

    let writes = (0..<300).map { index in level.set(Data("\(index)".utf8), forKey: "k\(index)") }
    await group.triggerGracefulShutdown()
    try await withTimeout(.seconds(30), "the shutdown") { try await running.value }

    #expect(!listener.isListening)
    for write in writes {
      #expect(write.isCompleted)
      if case .error(let error)? = write.result { Issue.record("a write failed: \(error)") }
    }
    let stored = try await PostgresTestServer.withClient { other in
      try await other.query(
        "SELECT count(*) FROM carlos_cache WHERE namespace = \(namespace)"
      ).collect().first!.decode(Int64.self)
    }
    #expect(stored == 300)
  }
}
#endif
