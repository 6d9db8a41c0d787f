#if HTTP
import AsyncHTTPClient
import Foundation

/// Runs `body` with a new client, shut down afterwards whatever happens.
func withClient<T: Sendable>(
  _ configuration: HTTPClient.Configuration = .init(),
  _ body: (HTTPClient) async throws -> T
) async throws -> T {
  let client = HTTPClient(
    eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
  do {
    let result = try await body(client)
    try await client.shutdown()
    return result
  } catch {
    try? await client.shutdown()
    throw error
  }
}

/// Runs `body` with a server answering with `handler` and a new client; stops both.
func withServer<T: Sendable>(
  configuration: HTTPClient.Configuration = .init(),
  _ handler: @escaping @Sendable (TestServer.Request) -> TestServer.Reply,
  run body: (TestServer, HTTPClient) async throws -> T
) async throws -> T {
  let server = try await TestServer(handler: handler)
  do {
    let result = try await withClient(configuration) { try await body(server, $0) }
    await server.stop()
    return result
  } catch {
    await server.stop()
    throw error
  }
}

/// A 200 with `body` and `headers`.
func ok(_ body: String = "hello", _ headers: [(String, String)] = []) -> TestServer.Reply {
  .respond(status: 200, headers: headers, body: Data(body.utf8))
}
#endif
