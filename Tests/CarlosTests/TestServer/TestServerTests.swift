import CarlosTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The loopback server the network tests rely on.
@Suite("TestServer")
struct TestServerTests {
  /// A client that waits as long as any test: the shared session gives up on a
  /// silent response after 60 s, which a ThreadSanitizer run on a loaded machine
  /// can keep a test from reaching its `stop()` for, and its disconnect then
  /// counted as the client's.
  private static let session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = longerThanAnyTest
    configuration.timeoutIntervalForResource = longerThanAnyTest
    return URLSession(configuration: configuration)
  }()

  private func fetch(_ url: URL) async throws -> (Int, Data) {
    let (data, response) = try await Self.session.data(from: url)
    return ((response as? HTTPURLResponse)?.statusCode ?? -1, data)
  }

  @Test("listens on 127.0.0.1 on a system-chosen port")
  func listensOnLoopback() throws {
    let server = try TestServer { _ in .ok("") }
    defer { server.stop() }

    #expect(server.port != 0)
    #expect(server.baseURL.host == "127.0.0.1")
    #expect(server.baseURL.port == Int(server.port))
  }

  @Test("answers with the handler's status and body and counts requests per path")
  func answersAndCounts() async throws {
    let server = try TestServer { path in
      path == "/teapot" ? .status(418) : .ok("you asked for \(path)")
    }
    defer { server.stop() }

    let (status, body) = try await fetch(server.url("/a?x=1"))
    _ = try await fetch(server.url("/a?x=1"))
    let (teapot, _) = try await fetch(server.url("/teapot"))

    #expect(status == 200)
    #expect(String(decoding: body, as: UTF8.self) == "you asked for /a?x=1")
    #expect(teapot == 418)
    #expect(server.requestCount("/a?x=1") == 2)
    #expect(server.requestCount("/teapot") == 1)
    #expect(server.requestCount("/never") == 0)
    #expect(server.totalRequestCount == 3)
    #expect(server.clientDisconnectCount("/a?x=1") == 0)
  }

  @Test("two servers get different ports")
  func separatePorts() throws {
    let first = try TestServer { _ in .ok("1") }
    let second = try TestServer { _ in .ok("2") }
    defer {
      first.stop()
      second.stop()
    }

    #expect(first.port != second.port)
  }

  @Test("after stop the port refuses connections, and stopping again is harmless")
  func stopClosesTheListener() async throws {
    let server = try TestServer { _ in .ok("up") }
    let url = server.url("/")
    _ = try await fetch(url)

    server.stop()
    server.stop()

    await #expect(throws: (any Error).self) { try await fetch(url) }
  }

  @Test("stop ends a response that is still waiting")
  func stopInterruptsADelayedResponse() async throws {
    let server = try TestServer { _ in
      TestServerResponse(body: Data("late".utf8), delay: longerThanAnyTest)
    }
    let request = Task { try await fetch(server.url("/slow")) }
    #expect(await server.waitForRequests("/slow", timeout: patience))

    server.stop()

    await #expect(throws: (any Error).self) { try await request.value }
    #expect(server.clientDisconnectCount("/slow") == 0)
  }

  @Test("a refusing port refuses connections")
  func refusingPortRefuses() async throws {
    let refusing = try RefusingPort()

    #expect(refusing.port != 0)
    await #expect(throws: (any Error).self) { try await fetch(refusing.url("/")) }
  }
}
