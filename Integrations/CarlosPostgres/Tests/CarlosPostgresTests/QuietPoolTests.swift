#if Postgres
import PostgresNIO
import Testing

@testable import CarlosPostgres

/// postgres-nio schedules a keep-alive timer, and an idle timer, whenever a connection
/// goes back to its pool; on Linux a cancelled `Task.sleep` keeps its memory until its
/// deadline, so a service doing 4,000 operations a second held 240 MB of such timers
/// (issue: the shared tier under faults, "memory not flat"). The clients Carlos makes
/// send no keep-alive and close idle connections after 5 s, not 60.
@Suite("Quiet pool")
struct QuietPoolTests {
  @Test(
    "a configuration read from a database URL sends no keep-alive and keeps idle connections 5 s")
  func databaseURL() throws {
    let url = "postgres://app@127.0.0.1:5432/cache"
    let configuration = try DatabaseURL.configuration(url)
    #expect(configuration.options.maximumConnections == 8)
    #expect(configuration.options.minimumConnections == 0)
    #expect(configuration.options.keepAliveBehavior == nil)
    #expect(configuration.options.connectionIdleTimeout == .seconds(5))
    #expect(try DatabaseURL.configuration(url, connections: 3).options.maximumConnections == 3)
  }

  @Test("a client the level or the listener makes has a quiet pool of the configured size")
  func ownedClient() throws {
    var plain = PostgresClient.Configuration(
      host: "127.0.0.1", port: 5432, username: "app", password: nil, database: "cache",
      tls: .disable)
    plain.options.maximumConnections = 6
    plain.options.minimumConnections = 6
    let configuration = RenewableClient(configuration: plain).configuration
    #expect(configuration.options.maximumConnections == 6)
    #expect(configuration.options.minimumConnections == 0)
    #expect(configuration.options.keepAliveBehavior == nil)
    #expect(configuration.options.connectionIdleTimeout == .seconds(5))
  }
}
#endif
