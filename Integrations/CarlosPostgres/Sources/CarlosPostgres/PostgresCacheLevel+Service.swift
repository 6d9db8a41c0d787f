#if Postgres
import ServiceLifecycle

extension PostgresCacheLevel: Service {
  /// Runs until the service group shuts down gracefully (or the task is cancelled),
  /// then returns once the writes in flight have completed, closing the level's own
  /// client (``init(configuration:options:)``) if it has one.
  ///
  /// List the level after its client in a `ServiceGroup` (when it was given one):
  /// services shut down in reverse order, so the client keeps its connections until
  /// every write the level accepted has reached the server.
  ///
  /// ```swift
  /// let group = ServiceGroup(
  ///   services: [client, level, listener], gracefulShutdownSignals: [.sigterm], logger: logger)
  /// try await group.run()
  /// ```
  public func run() async throws {
    try? await gracefulShutdown()
    await writesFinished()
    close()
  }
}
#endif
