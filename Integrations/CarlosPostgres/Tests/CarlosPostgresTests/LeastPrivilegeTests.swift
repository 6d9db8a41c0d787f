#if Postgres
import Carlos
import Foundation
import PostgresNIO
import Testing

@testable import CarlosPostgres

@Suite("Least privilege", .enabled(if: !PostgresTestServer.skipped))
struct LeastPrivilegeTests {
  /// The script, read from the package's `SQL` folder.
  static func script() throws -> String {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    return try String(
      contentsOf: folder.appendingPathComponent("SQL/least-privilege.sql"), encoding: .utf8)
  }

  /// The script's statements, without comments, `BEGIN` and `COMMIT` (the caller runs
  /// them in one transaction, as psql runs the whole file).
  static func statements(of script: String) -> [String] {
    var statements: [String] = []
    var current: [String] = []
    var dollarQuotes = 0
    for line in script.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("--")
        || (current.isEmpty && line.trimmingCharacters(in: .whitespaces).isEmpty)
      {
        continue
      }
      current.append(String(line))
      dollarQuotes += line.components(separatedBy: "$$").count - 1
      if line.hasSuffix(";") && dollarQuotes % 2 == 0 {
        let statement = String(current.joined(separator: "\n").dropLast())
        if statement != "BEGIN" && statement != "COMMIT" { statements.append(statement) }
        current = []
      }
    }
    return statements
  }

  /// Words of `text` separated by single spaces.
  static func normalised(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// Runs the script as the test server's (super)user.
  static func runScript(_ client: PostgresClient) async throws {
    let statements = statements(of: try script())
    try await client.withTransaction(logger: Logger(label: "least-privilege")) { connection in
      for statement in statements {
        try await connection.query(
          PostgresQuery(unsafeSQL: statement), logger: Logger(label: "sql"))
      }
    }
  }

  /// Runs `body` with a client of a database of its own, made for it and dropped
  /// after, as the test server's (super)user: the script changes the tables' owner
  /// and security, which must not happen under the other tests' feet.
  static func withDatabase<T: Sendable>(
    _ name: String, _ body: @Sendable (PostgresClient) async throws -> T
  ) async throws -> T {
    try await PostgresTestServer.withClient(asAdministrator: true) { server in
      _ = try await server.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)")).collect()
      var configuration = try DatabaseURL.configuration(try PostgresTestServer.administratorURL())
      configuration.database = name
      let result: Result<T, any Error>
      do {
        result = .success(try await PostgresTestServer.withRunningClient(configuration, body))
      } catch {
        result = .failure(error)
      }
      _ = try await server.query(
        PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)")
      ).collect()
      return try result.get()
    }
  }

  /// Runs `body` with a client that logs in as `role`, a member of `carlos_cache_user`,
  /// to the database `database`.
  static func asApplication<T: Sendable>(
    _ role: String, in database: String, _ admin: PostgresClient,
    _ body: @Sendable (PostgresClient) async throws -> T
  ) async throws -> T {
    let create = """
      DO $$ BEGIN
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '\(role)') THEN
          CREATE ROLE \(role) LOGIN IN ROLE carlos_cache_user;
        END IF;
      END $$
      """
    _ = try await admin.query(PostgresQuery(unsafeSQL: create)).collect()
    var configuration = try DatabaseURL.configuration(try PostgresTestServer.administratorURL())
    configuration.username = role
    configuration.database = database
    return try await PostgresTestServer.withRunningClient(configuration, body)
  }

  @Test("The script creates exactly the tables and indexes the level creates itself")
  func scriptMatchesTheSchema() throws {
    let script = Self.normalised(try Self.script())
    for statement in UnloggedCacheTable.schema + LoggedCacheTable.schema + LeaseTable.schema {
      #expect(script.contains(Self.normalised(statement) + ";"), "\(statement)")
    }
  }

  @Test(
    "An application role with createTable: false reads and writes its own namespace, and no other's"
  )
  func rowsOfOtherNamespacesAreInvisible() async throws {
    let suffix = UUID().uuidString.prefix(8).lowercased()
    let database = "carlos_least_privilege_\(suffix)"
    try await Self.withDatabase(database) { admin in
      try await Self.runScript(admin)
      try await Self.runScript(admin)  // again: nothing changes, nothing fails
      let (first, second) = ("carlos_app_a_\(suffix)", "carlos_app_b_\(suffix)")
      try await Self.asApplication(first, in: database, admin) { client in
        for durability in [PostgresCacheOptions.Durability.unlogged, .logged] {
          let level = try PostgresCacheLevel<String>(
            client: client,
            options: .init(namespace: first, durability: durability, createTable: false))
          try await level.set(Data("a's".utf8), forKey: "shared-key").value
          #expect(try await level.get("shared-key").value == Data("a's".utf8))
        }
        // Namespaces that start with the role's name and a dot are its own too, and a
        // level with the default options uses the table its owner made.
        let pages = try PostgresCacheLevel<String>(
          client: client, options: .init(namespace: first + ".pages"))
        try await pages.set(Data("a's page".utf8), forKey: "shared-key").value
        #expect(try await pages.get("shared-key").value == Data("a's page".utf8))
        // A longer name without the dot is another role's.
        let lookalike = try PostgresCacheLevel<String>(
          client: client, options: .init(namespace: first + "x", createTable: false))
        await #expect(throws: (any Error).self) {
          try await lookalike.set(Data("x".utf8), forKey: "shared-key").value
        }
      }
      try await Self.asApplication(second, in: database, admin) { client in
        for durability in [PostgresCacheOptions.Durability.unlogged, .logged] {
          let intruder = try PostgresCacheLevel<String>(
            client: client,
            options: .init(namespace: first, durability: durability, createTable: false))
          await #expect(throws: FetchError.valueNotInCache) {
            try await intruder.get("shared-key").value
          }
          let pagesIntruder = try PostgresCacheLevel<String>(
            client: client,
            options: .init(namespace: first + ".pages", durability: durability, createTable: false))
          await #expect(throws: FetchError.valueNotInCache) {
            try await pagesIntruder.get("shared-key").value
          }
          await #expect(throws: (any Error).self) {
            try await intruder.set(Data("planted".utf8), forKey: "shared-key").value
          }
          let own = try PostgresCacheLevel<String>(
            client: client,
            options: .init(namespace: second, durability: durability, createTable: false))
          try await own.set(Data("b's".utf8), forKey: "shared-key").value
          #expect(try await own.get("shared-key").value == Data("b's".utf8))
        }
      }
      // The rows are there, each in its namespace, untouched by the other role.
      var rows: [(String, Data)] = []
      for try await row in try await admin.query(
        "SELECT namespace, value FROM carlos_cache WHERE key = \(Data("shared-key".utf8))"
      ).decode((String, Data).self) {
        rows.append(row)
      }
      #expect(rows.contains { $0.0 == first && $0.1 == Data("a's".utf8) })
      #expect(rows.contains { $0.0 == second && $0.1 == Data("b's".utf8) })
    }
  }
}
#endif
