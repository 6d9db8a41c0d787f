import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Testing

/// An application running in this process with its services, on an ephemeral port.
final class RunningService: Sendable {
  let port: Int
  let url: URL
  private let group: ServiceGroup
  private let task: Task<Void, any Error>

  /// Starts `app` (built with an `onServerRunning` that calls the given closure with
  /// its port) and returns once it accepts connections.
  static func start(
    _ make: (@escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol
  ) async throws -> RunningService {
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let app = make { port in continuation.yield(port) }
    let group = ServiceGroup(
      services: [app], gracefulShutdownSignals: [], cancellationSignals: [],
      logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    let task = Task { try await group.run() }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else { throw CancellationError() }
    return RunningService(port: port, group: group, task: task)
  }

  private init(port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
    self.port = port
    self.url = URL(string: "http://127.0.0.1:\(port)")!
    self.group = group
    self.task = task
  }

  /// Shuts the application and its services down gracefully.
  func stop() async throws {
    await group.triggerGracefulShutdown()
    try await task.value
  }
}

/// The URL of the test's PostgreSQL server; fails the test without one.
func databaseURL() throws -> String {
  guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty else {
    Issue.record(
      "DATABASE_URL is not set: run the tests through Integrations/Scripts/with-postgres.sh")
    throw CancellationError()
  }
  return url
}
