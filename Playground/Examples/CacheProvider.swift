import Carlos
import CarlosTestServer
import Foundation
import Synchronization

extension Example {
  static let cacheProvider: Example = Example(
    name: "cache-provider",
    summary:
      "CacheProvider.dataCache(): memory >>> disk >>> network, pooled; and a typed JSON cache"
  ) {
    struct Project: Codable, Sendable {
      let name: String
      let levels: Int
    }

    // A local server stands in for the internet; a temporary folder for the disk level.
    let server = try TestServer { path in
      path.hasSuffix(".json")
        ? .ok(#"{"name": "Carlos", "levels": 3}"#)
        : TestServerResponse(body: Data("the bytes of \(path)".utf8), delay: 0.1)
    }
    defer { server.stop() }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("carlos-playground-\(UUID().uuidString)").path
    defer {
      try? FileManager.default.removeItem(atPath: folder)
      try? FileManager.default.removeItem(atPath: folder + "-json")
    }

    let url = server.url("/logo.png")
    let cache = CacheProvider.dataCache(folder: folder)
    _ = try await cache.get(url).value
    print("first get: from the network, requests so far: \(server.requestCount("/logo.png"))")
    _ = try await cache.get(url).value
    print("second get: from memory, requests so far: \(server.requestCount("/logo.png"))")

    let banner = server.url("/banner.png")
    let futures = Mutex<[Future<Data>]>([])
    DispatchQueue.concurrentPerform(iterations: 50) { _ in
      let future = cache.get(banner)
      futures.withLock { $0.append(future) }
    }
    for future in futures.withLock({ $0 }) { _ = try await future.value }
    print("50 concurrent gets of another URL: \(server.requestCount("/banner.png")) request")

    let projects = CacheProvider.JSONCache(of: Project.self, folder: folder + "-json")
    let project = try await projects.get(server.url("/project.json")).value
    print("a typed JSON cache: \(project.name) has \(project.levels) levels")

    server.stop()
    // A new cache on the same folder, as after a restart of the program.
    let restarted = CacheProvider.dataCache(folder: folder)
    let fromDisk = await outcome(restarted.get(url).map { String(decoding: $0, as: UTF8.self) })
    print("after a restart, with the server gone: \(fromDisk)")
  }
}
