import PostgresNIO

extension PostgresClient.Configuration {
  /// This configuration with a pool that opens `maximumConnections` connections and
  /// keeps them, and without postgres-nio's keep-alive queries: the pool of
  /// ``DatabaseURL/configuration(_:connections:)`` and of every client a level or a
  /// listener makes.
  ///
  /// postgres-nio schedules a keep-alive timer (30 s), and an idle timer (60 s) for a
  /// connection above `minimumConnections`, each time a connection goes back to the
  /// pool, and cancels them at its next lease. On Linux a cancelled `Task.sleep` keeps
  /// its memory until its deadline (swiftlang/swift#60441), so at thousands of
  /// operations a second these timers held hundreds of megabytes. A fixed pool
  /// without keep-alive schedules neither. A connection that died while idle fails
  /// its next operation within the level's timeout, as in any outage.
  var fixedPool: Self {
    var configuration = self
    configuration.options.minimumConnections = configuration.options.maximumConnections
    configuration.options.keepAliveBehavior = nil
    return configuration
  }
}
