import AsyncHTTPClient
import ServiceLifecycle

/// Runs until graceful shutdown, then shuts `client` down.
public struct HTTPClientService: Service {
  /// The client it shuts down.
  public let client: HTTPClient

  /// A service owning `client`.
  public init(_ client: HTTPClient) {
    self.client = client
  }

  /// Waits for graceful shutdown (or cancellation), then shuts the client down.
  public func run() async throws {
    try? await gracefulShutdown()
    try await client.shutdown()
  }
}
