import Carlos
import CarlosTestServer
import Foundation
import Testing

@Suite("CacheProvider")
struct CacheProviderTests {
  struct Repository: Codable, Equatable, Sendable {
    let name: String
    let stars: Int
  }

  /// A fresh folder for a disk level; remove it with `removeFolder`.
  private func makeFolder() -> String {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("carlos-cache-provider-tests-\(UUID().uuidString)", isDirectory: true)
      .path
  }

  private func removeFolder(_ folder: String) {
    try? FileManager.default.removeItem(atPath: folder)
  }

  /// Gets `url` until it succeeds or `seconds` pass (disk writes may land a moment after a get).
  private func eventually<Value: Sendable>(
    _ cache: BasicCache<URL, Value>, _ url: URL, within seconds: TimeInterval = 30
  ) async -> Value? {
    let deadline = Date().addingTimeInterval(seconds)
    repeat {
      if let value = try? await cache.get(url).value { return value }
      try? await Task.sleep(nanoseconds: 20_000_000)
    } while Date() < deadline
    return nil
  }

  @Test("the first get reaches the server once, the next ones are served from the cache")
  func secondGetIsCached() async throws {
    let server = try TestServer { _ in .ok("payload") }
    defer { server.stop() }
    let folder = makeFolder()
    defer { removeFolder(folder) }
    let cache = CacheProvider.dataCache(folder: folder, fetcher: NetworkFetcher(timeout: patience))
    let url = server.url("/data")

    let first = try await cache.get(url).value
    let second = try await cache.get(url).value
    server.stop()
    let third = try await cache.get(url).value

    #expect(String(decoding: first, as: UTF8.self) == "payload")
    #expect(second == first)
    #expect(third == first)
    #expect(server.requestCount("/data") == 1)
  }

  @Test("after a restart the value comes from disk without the server")
  func restartReadsFromDisk() async throws {
    let server = try TestServer { _ in .ok("kept on disk") }
    let folder = makeFolder()
    defer { removeFolder(folder) }
    let url = server.url("/persistent")
    do {
      let cache = CacheProvider.dataCache(
        folder: folder, fetcher: NetworkFetcher(timeout: patience))
      _ = try await cache.get(url).value
    }
    server.stop()

    let restarted = CacheProvider.dataCache(
      folder: folder, fetcher: NetworkFetcher(timeout: patience))
    let value = await eventually(restarted, url)

    #expect(value.map { String(decoding: $0, as: UTF8.self) } == "kept on disk")
    #expect(server.requestCount("/persistent") == 1)
  }

  @Test("100 concurrent gets of one URL reach the server once")
  func concurrentGetsArePooled() async throws {
    let server = try TestServer { _ in TestServerResponse(body: Data("shared".utf8), delay: 0.3) }
    defer { server.stop() }
    let folder = makeFolder()
    defer { removeFolder(folder) }
    let cache = CacheProvider.dataCache(folder: folder, fetcher: NetworkFetcher(timeout: patience))
    let url = server.url("/popular")

    let all = await issueConcurrently(threads: 4, perThread: 25) { _, _ in cache.get(url) }
    var bodies: [Data] = []
    for future in all { bodies.append(try await future.value) }

    #expect(bodies.count == 100)
    #expect(bodies.allSatisfy { $0 == Data("shared".utf8) })
    #expect(server.requestCount("/popular") == 1)
  }

  @Test("a failing status is not cached: the next get asks the server again")
  func failuresAreNotCached() async throws {
    let server = try TestServer { _ in .status(404) }
    defer { server.stop() }
    let folder = makeFolder()
    defer { removeFolder(folder) }
    let cache = CacheProvider.dataCache(folder: folder, fetcher: NetworkFetcher(timeout: patience))
    let url = server.url("/missing")

    let first = await Result { try await cache.get(url).value }
    let second = await Result { try await cache.get(url).value }

    #expect(first.failure as? NetworkFetcherError == .statusCode(404))
    #expect(second.failure as? NetworkFetcherError == .statusCode(404))
    #expect(server.requestCount("/missing") == 2)
  }

  @Test("a typed JSON cache decodes values and serves them again from the cache")
  func typedJSONCache() async throws {
    let server = try TestServer { _ in .ok(#"{"name": "Carlos", "stars": 640}"#) }
    defer { server.stop() }
    let folder = makeFolder()
    defer { removeFolder(folder) }
    let cache = CacheProvider.JSONCache(
      of: Repository.self, folder: folder, fetcher: NetworkFetcher(timeout: patience))
    let url = server.url("/repo.json")

    let first = try await cache.get(url).value
    let second = try await cache.get(url).value

    #expect(first == Repository(name: "Carlos", stars: 640))
    #expect(second == first)
    #expect(server.requestCount("/repo.json") == 1)
  }

  @Test("the untyped JSON cache returns JSON values")
  func untypedJSONCache() async throws {
    let server = try TestServer { _ in .ok(#"{"levels": ["memory", "disk", "network"]}"#) }
    defer { server.stop() }
    let folder = makeFolder()
    defer { removeFolder(folder) }
    let cache = CacheProvider.JSONCache(folder: folder, fetcher: NetworkFetcher(timeout: patience))

    let value = try await cache.get(server.url("/levels.json")).value

    #expect(value["levels"]?[2]?.stringValue == "network")
  }

  @Test("a response that is not valid JSON fails and is not cached")
  func invalidJSONIsNotCached() async throws {
    let server = try TestServer { _ in .ok("<html>not json</html>") }
    defer { server.stop() }
    let folder = makeFolder()
    defer { removeFolder(folder) }
    let cache = CacheProvider.JSONCache(folder: folder, fetcher: NetworkFetcher(timeout: patience))
    let url = server.url("/page")

    let first = await Result { try await cache.get(url).value }
    let second = await Result { try await cache.get(url).value }

    #expect(first.failure is DecodingError)
    #expect(second.failure is DecodingError)
    #expect(server.requestCount("/page") == 2)
  }

  @Test("the shared caches fetch and can be cleared")
  func sharedCaches() async throws {
    let server = try TestServer { path in
      path.hasSuffix(".json") ? .ok(#"{"shared": true}"#) : .ok("shared bytes")
    }
    defer { server.stop() }
    defer {
      CacheProvider.sharedDataCache.clear()
      CacheProvider.sharedJSONCache.clear()
    }
    let dataURL = server.url("/shared-\(UUID().uuidString)")
    let jsonURL = server.url("/shared-\(UUID().uuidString).json")

    let data = try await CacheProvider.sharedDataCache.get(dataURL).value
    let json = try await CacheProvider.sharedJSONCache.get(jsonURL).value

    #expect(String(decoding: data, as: UTF8.self) == "shared bytes")
    #expect(json["shared"]?.boolValue == true)
  }
}

extension Result where Success: Sendable, Failure == any Error {
  /// Runs `body` and captures its value or error.
  fileprivate init(catching body: () async throws -> Success) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }

  fileprivate var failure: (any Error)? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
