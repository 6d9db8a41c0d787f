#if Postgres
import Carlos
import CarlosPostgres
import Foundation
import PostgresNIO
import Synchronization
import Testing

/// The PostgreSQL server the integration tests run against: `DATABASE_URL`, as
/// exported by `Integrations/Scripts/with-postgres.sh`.
///
/// Without it the tests fail with a message saying how to provide one, unless
/// `CARLOS_SKIP_POSTGRES_TESTS=1` says to skip them.
enum PostgresTestServer {
  /// Whether the tests that need a server are skipped (`CARLOS_SKIP_POSTGRES_TESTS=1`).
  static var skipped: Bool {
    ProcessInfo.processInfo.environment["CARLOS_SKIP_POSTGRES_TESTS"] == "1"
  }

  /// Why the tests cannot run, shown when there is no server.
  static let missing =
    "DATABASE_URL is not set: run the tests through Integrations/Scripts/with-postgres.sh "
    + "(which starts a throwaway PostgreSQL), or set CARLOS_SKIP_POSTGRES_TESTS=1 to skip them"

  /// The server's address.
  static func url() throws -> String {
    guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty else {
      throw ServerUnavailable(message: missing)
    }
    return url
  }

  /// Runs `body` with a running client of the test server, after checking that the
  /// server answers (failing with a clear message when it does not).
  static func withClient<T: Sendable>(
    maximumConnections: Int = 20, asAdministrator: Bool = false,
    _ body: @Sendable (PostgresClient) async throws -> T
  ) async throws -> T {
    let url = try asAdministrator ? administratorURL() : url()
    let configuration = try DatabaseURL.configuration(url, connections: maximumConnections)
    return try await withRunningClient(configuration) { client in
      do {
        try await withTimeout(.seconds(10)) {
          _ = try await client.query("SELECT 1").collect()
        }
      } catch {
        throw ServerUnavailable(
          message: "PostgreSQL at \(url) is unreachable (\(error)); start one with "
            + "Integrations/Scripts/with-postgres.sh or set CARLOS_SKIP_POSTGRES_TESTS=1")
      }
      try await createTablesOnce()
      return try await body(client)
    }
  }

  /// The tables, created once for the whole test process before any test's level
  /// runs: dozens of levels that start together on a fresh server otherwise wait in
  /// line for the creation lock, and the last ones run out of their 2 s.
  private static let tables = Mutex<Task<Void, any Error>?>(nil)

  private static func createTablesOnce() async throws {
    let task = tables.withLock { task in
      if let task { return task }
      let created = Task {
        let configuration = try DatabaseURL.configuration(try url(), connections: 1)
        try await withRunningClient(configuration) { client in
          for durability in [PostgresCacheOptions.Durability.unlogged, .logged] {
            let level = try PostgresCacheLevel<String>(
              client: client,
              options: .init(
                namespace: namespace(), durability: durability, operationTimeout: .seconds(60)))
            try await level.remove("absent").value
          }
        }
      }
      task = created
      return created
    }
    try await task.value
  }

  /// Runs `body` with a client of `configuration` whose `run()` goes on meanwhile.
  static func withRunningClient<T: Sendable>(
    _ configuration: PostgresClient.Configuration,
    _ body: @Sendable (PostgresClient) async throws -> T
  ) async throws -> T {
    let client = PostgresClient(configuration: configuration)
    return try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await client.run() }
      defer { group.cancelAll() }
      return try await body(client)
    }
  }

  /// The address of a role that may create databases and roles: the same as
  /// ``url()`` unless the tests run as a least-privilege role
  /// (`CARLOS_PG_LEAST_PRIVILEGE=1` in `with-postgres.sh`), which sets
  /// `CARLOS_ADMIN_DATABASE_URL`.
  static func administratorURL() throws -> String {
    if let url = ProcessInfo.processInfo.environment["CARLOS_ADMIN_DATABASE_URL"], !url.isEmpty {
      return url
    }
    return try url()
  }

  /// A namespace no other test uses; under a least-privilege role, one of the
  /// role's own (`CARLOS_TEST_NAMESPACE_PREFIX`, the role's name and a dot).
  static func namespace(_ label: String = #function) -> String {
    let prefix = ProcessInfo.processInfo.environment["CARLOS_TEST_NAMESPACE_PREFIX"] ?? ""
    return "\(prefix)test-\(label.prefix(40))-\(UUID().uuidString.prefix(8))"
  }
}

/// The server the tests need is not there.
struct ServerUnavailable: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

/// A bounded wait for something outside the test's control took too long.
struct WaitTimedOut: Error, CustomStringConvertible {
  var what: String
  var description: String { "timed out waiting for \(what)" }
}

/// Runs `operation`, failing with `WaitTimedOut` after `limit`.
func withTimeout<T: Sendable>(
  _ limit: Duration, _ what: String = "an operation",
  _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T.self) { group in
    group.addTask { try await operation() }
    group.addTask {
      try await Task.sleep(for: limit)
      throw WaitTimedOut(what: what)
    }
    defer { group.cancelAll() }
    return try await group.next()!
  }
}

/// Retries `attempt` every 50 ms until it succeeds (for a server coming back),
/// failing with `WaitTimedOut` after `limit`.
func eventually<T: Sendable>(
  within limit: Duration, _ what: String, _ attempt: @Sendable () async throws -> T
) async throws -> T {
  let deadline = ContinuousClock.now + limit
  while true {
    do { return try await attempt() } catch {
      if ContinuousClock.now >= deadline { throw WaitTimedOut(what: "\(what) (last: \(error))") }
    }
    try await Task.sleep(for: .milliseconds(50))
  }
}

/// The outcome of a future, for comparisons in expectations.
func outcome<T: Sendable>(_ future: Future<T>) async -> Result<T, any Error> {
  do { return .success(try await future.value) } catch { return .failure(error) }
}
#endif
