#if Postgres
import Foundation
import PostgresNIO

/// Reads a `postgres://user:password@host:port/database?sslmode=...` address (the
/// usual `DATABASE_URL`) into a client configuration.
public enum DatabaseURL {
  /// Why an address could not be read.
  public struct InvalidURL: Error, CustomStringConvertible, Equatable {
    /// The address, with any password removed.
    public var url: String
    /// What is wrong with it.
    public var reason: String
    /// A human-readable description.
    public var description: String { "invalid database URL \(url): \(reason)" }
  }

  /// The configuration for `url`, with a pool of up to `connections` connections.
  /// TLS is off unless `sslmode` is `require`, `verify-ca` or `verify-full` (then
  /// required) or `prefer`.
  ///
  /// The pool sends no keep-alive queries and closes a connection unused for 5 s, so
  /// the timers it schedules when a connection goes back to it hold their memory for
  /// seconds, not a minute (see ``PostgresNIO/PostgresClient/Configuration/quietPool``).
  public static func configuration(
    _ url: String, connections: Int = 8
  ) throws -> PostgresClient.Configuration {
    precondition(connections >= 1, "a pool needs at least one connection")
    guard let parts = URLComponents(string: url), let scheme = parts.scheme,
      scheme == "postgres" || scheme == "postgresql"
    else {
      throw InvalidURL(url: redacted(url), reason: "expected postgres://user@host:port/database")
    }
    guard let host = parts.host, !host.isEmpty else {
      throw InvalidURL(url: redacted(url), reason: "no host")
    }
    let user = parts.user ?? "postgres"
    let database = parts.path.count > 1 ? String(parts.path.dropFirst()) : user
    let mode = parts.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
    let tls: PostgresClient.Configuration.TLS
    switch mode {
    case "disable", "allow": tls = .disable
    case "prefer": tls = .prefer(.makeClientConfiguration())
    case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
    default: throw InvalidURL(url: redacted(url), reason: "unknown sslmode \(mode)")
    }
    var configuration = PostgresClient.Configuration(
      host: host, port: parts.port ?? 5432, username: user,
      password: parts.password, database: database, tls: tls)
    configuration.options.maximumConnections = connections
    return configuration.quietPool
  }

  /// `url` without its password.
  static func redacted(_ url: String) -> String {
    guard var parts = URLComponents(string: url), parts.password != nil else { return url }
    parts.password = "***"
    return parts.string ?? "<unreadable>"
  }
}
#endif
