import Carlos
import CarlosTestServer
import Foundation

extension Example {
  static let networkFetcher: Example = Example(
    name: "network-fetcher",
    summary:
      "NetworkFetcher gets URLs over HTTP: bodies, status errors, timeouts, size limits, cancellation"
  ) {
    // A tiny HTTP server on 127.0.0.1 stands in for the internet.
    let server = try TestServer { path in
      switch path {
      case "/hello": return .ok("hello from the local server")
      case "/slow": return TestServerResponse(body: Data("finally".utf8), delay: 5)
      case "/big": return TestServerResponse(body: Data(repeating: 0, count: 4_096))
      default: return .status(404)
      }
    }
    defer { server.stop() }
    print("a local server listens on \(server.baseURL)")

    let fetcher = NetworkFetcher(timeout: 0.3, maximumResponseSize: 1_024)
    let hello = try await fetcher.get(server.url("/hello")).value
    print("GET /hello -> \"\(String(decoding: hello, as: UTF8.self))\"")
    print("GET /missing -> \(await outcome(fetcher.get(server.url("/missing"))))")
    print("GET /big with a 1 KiB limit -> \(await outcome(fetcher.get(server.url("/big"))))")
    print("GET /slow with a 0.3 s timeout -> \(await outcome(fetcher.get(server.url("/slow"))))")

    let patient = NetworkFetcher(timeout: 30)
    let request: Future<Data> = patient.get(server.url("/slow"))
    _ = await server.waitForRequests("/slow", count: 2)
    request.cancel()
    print("GET /slow cancelled -> \(await outcome(request))")
    let hungUp = await server.waitForClientDisconnect("/slow", count: 2)
    print("the server saw both clients of /slow hang up: \(hungUp)")

    print("a fetcher ends a pipeline; here behind an in-memory level:")
    let cache = DictionaryLevel<URL, Data>("memory") >>> fetcher
    _ = try await cache.get(server.url("/hello")).value
    _ = try await cache.get(server.url("/hello")).value
    print("two gets, \(server.requestCount("/hello") - 1) more request reached the server")
  }
}
