#if Postgres
import PostgresNIO

extension PostgresClient.Configuration {
  /// This configuration without postgres-nio's keep-alive queries, and with idle
  /// connections closed after ``quietIdleTimeout``: the pool of
  /// ``DatabaseURL/configuration(_:connections:)`` and of every client a level or a
  /// listener makes.
  ///
  /// postgres-nio schedules a keep-alive timer (30 s), and an idle timer (60 s by
  /// default), each time a connection goes back to the pool, and cancels them at its
  /// next lease. On Linux a cancelled `Task.sleep` keeps its memory until its deadline
  /// (swiftlang/swift#60441), so at thousands of operations a second these timers
  /// held hundreds of megabytes. Without keep-alive and with a short idle timeout, the
  /// timers still pending are the last few seconds' only. (A pool that keeps
  /// `minimumConnections` open schedules no idle timer, but postgres-nio 1.33 stops
  /// on a precondition when such a pool lends a connection while one of those is
  /// missing.) A connection that died while idle fails its next operation within the
  /// level's timeout, as in any outage.
  var quietPool: Self {
    var configuration = self
    configuration.options.minimumConnections = 0
    configuration.options.keepAliveBehavior = nil
    configuration.options.connectionIdleTimeout = Self.quietIdleTimeout
    return configuration
  }

  /// How long a connection of a quiet pool stays open unused: 5 s.
  static var quietIdleTimeout: Duration { .seconds(5) }
}
#endif
