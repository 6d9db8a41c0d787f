import Carlos
import CarlosTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("NetworkFetcher")
struct NetworkFetcherTests {
  /// Waits for `future` and returns its result, failing the test (with `.cancelled`)
  /// when it does not complete within `seconds`.
  private func outcome<T: Sendable>(of future: Future<T>, within seconds: TimeInterval = patience)
    async
    -> FutureResult<T>
  {
    let deadline = Date().addingTimeInterval(seconds)
    while future.result == nil && Date() < deadline {
      try? await Task.sleep(nanoseconds: 2_000_000)
    }
    guard let result = future.result else {
      Issue.record("the future did not complete within \(seconds) s")
      return .cancelled
    }
    return result
  }

  private func networkError<T>(_ result: FutureResult<T>) -> NetworkFetcherError? {
    result.error as? NetworkFetcherError
  }

  @Test("a 200 response returns the body")
  func okReturnsBody() async throws {
    let server = try TestServer { _ in .ok("hello carlos") }
    defer { server.stop() }
    let fetcher = NetworkFetcher(timeout: patience)

    let data = try await fetcher.get(server.url("/hello")).value

    #expect(String(decoding: data, as: UTF8.self) == "hello carlos")
    #expect(server.requestCount("/hello") == 1)
  }

  @Test("an empty 204 response succeeds with empty data")
  func noContentSucceedsEmpty() async throws {
    let server = try TestServer { _ in TestServerResponse(status: 204) }
    defer { server.stop() }

    let data = try await NetworkFetcher(timeout: patience).get(server.url("/empty")).value

    #expect(data.isEmpty)
  }

  @Test("a chunked body arrives whole")
  func chunkedBodyArrivesWhole() async throws {
    let body = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0) })
    let server = try TestServer { _ in TestServerResponse(body: body, chunkSize: 1_000) }
    defer { server.stop() }

    let data = try await NetworkFetcher(timeout: patience).get(server.url("/chunked")).value

    #expect(data == body)
  }

  @Test("a non-2xx status fails with that status", arguments: [404, 500])
  func errorStatusFails(status: Int) async throws {
    let server = try TestServer { _ in .status(status) }
    defer { server.stop() }

    let result = await outcome(of: NetworkFetcher(timeout: patience).get(server.url("/missing")))

    #expect(networkError(result) == .statusCode(status))
    #expect(server.requestCount("/missing") == 1)
  }

  @Test("the session's own request timer does not end a request before the fetcher's timeout")
  func sessionTimerDefersToTimeout() async throws {
    // FoundationNetworking times a request out after the configuration's
    // `timeoutIntervalForRequest` (60 s by default) even when the request asks
    // for longer: a fetcher with `timeout: patience` failed after 60 s of waiting.
    let server = try TestServer { _ in TestServerResponse(body: Data("late".utf8), delay: 2) }
    defer { server.stop() }
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 1
    let fetcher = NetworkFetcher(timeout: patience, configuration: configuration)

    let result = await outcome(of: fetcher.get(server.url("/late")))

    #expect(result.value == Data("late".utf8), "result: \(result)")
    #expect(configuration.timeoutIntervalForRequest == 1)  // the caller's object is left alone
  }

  @Test("cancelling a slow request ends it cancelled and closes the connection")
  func cancelClosesConnection() async throws {
    let server = try TestServer { _ in
      TestServerResponse(body: Data("late".utf8), delay: longerThanAnyTest)
    }
    defer { server.stop() }
    // The fetcher outwaits the test too: the cancel, not a timeout, must end it.
    let fetcher = NetworkFetcher(timeout: longerThanAnyTest)

    let future: Future<_> = fetcher.get(server.url("/slow"))
    #expect(await server.waitForRequests("/slow", timeout: patience))
    future.cancel()

    #expect(future.result?.isCancelled == true, "result: \(String(describing: future.result))")
    #expect(await server.waitForClientDisconnect("/slow", timeout: patience))
  }

  @Test("cancelling while the body streams in closes the connection")
  func cancelDuringBodyClosesConnection() async throws {
    // 100 chunks, each followed by a pause no test outlives: the body is still
    // streaming in when the test cancels, however slowly the test runs.
    let body = Data(repeating: 7, count: 1_000)
    let server = try TestServer { _ in
      TestServerResponse(body: body, chunkSize: 10, chunkDelay: longerThanAnyTest)
    }
    defer { server.stop() }

    let future: Future<_> = NetworkFetcher(timeout: longerThanAnyTest).get(server.url("/trickle"))
    #expect(await server.waitForRequests("/trickle", timeout: patience))
    try await Task.sleep(nanoseconds: 500_000_000)
    future.cancel()

    #expect(future.result?.isCancelled == true)
    #expect(await server.waitForClientDisconnect("/trickle", timeout: patience))
  }

  @Test("a silent server makes the request fail with a timeout")
  func silenceTimesOut() async throws {
    let server = try TestServer { _ in
      TestServerResponse(body: Data("late".utf8), delay: longerThanAnyTest)
    }
    defer { server.stop() }

    let result = await outcome(of: NetworkFetcher(timeout: 0.5).get(server.url("/silent")))

    #expect(networkError(result) == .timedOut)
    #expect(await server.waitForClientDisconnect("/silent", timeout: patience))
  }

  @Test("a body above the limit with a declared length fails cleanly")
  func declaredOversizedBodyFails() async throws {
    let server = try TestServer { _ in TestServerResponse(body: Data(repeating: 0, count: 200_000))
    }
    defer { server.stop() }

    let result = await outcome(
      of: NetworkFetcher(timeout: patience, maximumResponseSize: 100_000).get(server.url("/big")))

    #expect(networkError(result) == .responseTooLarge(limit: 100_000))
  }

  @Test("a chunked body that grows above the limit fails and the download stops")
  func streamedOversizedBodyFails() async throws {
    let server = try TestServer { _ in
      // 20 s of body at full speed: the download must be stopped long before the
      // server could finish it, even on a loaded machine.
      TestServerResponse(
        body: Data(repeating: 0, count: 100_000_000), chunkSize: 50_000, chunkDelay: 0.01)
    }
    defer { server.stop() }

    let result = await outcome(
      of: NetworkFetcher(timeout: patience, maximumResponseSize: 100_000).get(
        server.url("/endless")))

    #expect(networkError(result) == .responseTooLarge(limit: 100_000))
    #expect(await server.waitForClientDisconnect("/endless", timeout: patience))
  }

  @Test(
    "a response far above the limit fails, and the connection closes",
    arguments: [true, false])
  func hugeResponseIsRejected(declaringLength: Bool) async throws {
    // 1 TB in 64 KiB pieces, 1 ms apart (64 MB/s, so other tests keep some of
    // the processor): it never ends while the test runs, so only the client can
    // close the connection.
    let server = try TestServer { _ in
      .generated(
        length: 1_000_000_000_000, declaringLength: declaringLength, pieceDelay: 0.001)
    }
    defer { server.stop() }
    let limit = 1_000_000
    let fetcher = NetworkFetcher(timeout: 5, maximumResponseSize: limit)

    let result = await outcome(of: fetcher.get(server.url("/huge")))

    #expect(networkError(result) == .responseTooLarge(limit: limit))
    // How much arrives meanwhile is up to FoundationNetworking's reader (see
    // issue 11): on loopback, tens to hundreds of MB before it takes the cancellation.
    #expect(await server.waitForClientDisconnect("/huge", timeout: patience))
  }

  @Test("a server that keeps sending a little fails the request at its deadline")
  func deadlineEndsTrickle() async throws {
    // A byte every 0.1 s for 100 s: never silent long enough for the timeout.
    let server = try TestServer { _ in
      TestServerResponse(body: Data(repeating: 0x61, count: 1_000), chunkSize: 1, chunkDelay: 0.1)
    }
    defer { server.stop() }
    let fetcher = NetworkFetcher(timeout: patience, deadline: 0.5)

    let result = await outcome(of: fetcher.get(server.url("/trickle")))

    #expect(networkError(result) == .deadlineExceeded(seconds: 0.5))
    #expect(await server.waitForClientDisconnect("/trickle", timeout: patience))
  }

  @Test("without a deadline, a request that keeps receiving is not cut short")
  func noDeadlineByDefault() async throws {
    let server = try TestServer { _ in
      TestServerResponse(body: Data(repeating: 0x61, count: 10), chunkSize: 1, chunkDelay: 0.05)
    }
    defer { server.stop() }
    let fetcher = NetworkFetcher(timeout: patience)
    #expect(fetcher.deadline == nil)

    let result = await outcome(of: fetcher.get(server.url("/slow")))

    #expect(result.value == Data(repeating: 0x61, count: 10))
  }

  @Test(
    "a redirect to a scheme other than http or https fails with unsupportedRedirect",
    arguments: ["file:///etc/passwd", "ftp://127.0.0.1/file", "data:text/plain,hi"])
  func redirectToOtherScheme(location: String) async throws {
    let server = try TestServer { path in
      path == "/passwd"
        ? .ok("not to be fetched")
        : TestServerResponse(status: 302, headers: ["Location": location])
    }
    defer { server.stop() }

    let result = await outcome(of: NetworkFetcher(timeout: patience).get(server.url("/redirect")))

    #expect(networkError(result) == .unsupportedRedirect(try #require(URL(string: location))))
    #expect(server.requestCount("/etc/passwd") == 0)
    #expect(server.requestCount("/passwd") == 0)
  }

  @Test("a redirect to another http URL is followed")
  func redirectToHTTP() async throws {
    let server = try TestServer { path in
      path == "/target"
        ? .ok("arrived") : TestServerResponse(status: 302, headers: ["Location": "/target"])
    }
    defer { server.stop() }

    let result = await outcome(of: NetworkFetcher(timeout: patience).get(server.url("/start")))

    #expect(result.value == Data("arrived".utf8))
  }

  @Test("a refused connection fails with a connection error")
  func refusedConnectionFails() async throws {
    let refusing = try RefusingPort()

    let result = await outcome(of: NetworkFetcher(timeout: patience).get(refusing.url("/gone")))

    guard case .connectionFailed(let reason)? = networkError(result) else {
      Issue.record("expected connectionFailed, got \(result)")
      return
    }
    #expect(!reason.isEmpty)
  }

  @Test(
    "a URL that is not http(s) fails at once",
    arguments: ["file:///etc/hosts", "ftp://127.0.0.1/x"])
  func unsupportedURLFails(address: String) throws {
    let url = try #require(URL(string: address))

    let result = NetworkFetcher().get(url).result

    #expect(networkError(try #require(result)) == .unsupportedURL(url))
  }

  @Test("many concurrent requests each get their own body")
  func concurrentRequests() async throws {
    let server = try TestServer { path in .ok("body of \(path)") }
    defer { server.stop() }
    let fetcher = NetworkFetcher(timeout: patience)

    let bodies = try await withThrowingTaskGroup(of: (Int, String).self) { group in
      for index in 0..<20 {
        group.addTask {
          let data = try await fetcher.get(server.url("/item/\(index)")).value
          return (index, String(decoding: data, as: UTF8.self))
        }
      }
      var bodies: [Int: String] = [:]
      for try await (index, body) in group { bodies[index] = body }
      return bodies
    }

    #expect(bodies.count == 20)
    for (index, body) in bodies { #expect(body == "body of /item/\(index)") }
    #expect(server.totalRequestCount == 20)
  }

  @Test("set, clear and memory warnings do nothing and succeed")
  func fetcherStoresNothing() async throws {
    let server = try TestServer { _ in .ok("fresh") }
    defer { server.stop() }
    let fetcher = NetworkFetcher(timeout: patience)
    let url = server.url("/fresh")

    try await fetcher.set(Data("stale".utf8), forKey: url).value
    fetcher.clear()
    fetcher.onMemoryWarning()
    let data = try await fetcher.get(url).value

    #expect(String(decoding: data, as: UTF8.self) == "fresh")
  }
}
