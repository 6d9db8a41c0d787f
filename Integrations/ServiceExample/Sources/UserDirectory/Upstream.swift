import AsyncHTTPClient
import Carlos
import CarlosHTTP
import Foundation
import Hummingbird
import Synchronization

/// The slow service the caches stand in front of.
public enum Upstream {
  /// A level from a user id to the body of `GET <upstream>/users/<id>`, on `client`.
  public static func users(at upstream: URL, client: HTTPClient) -> BasicCache<String, Data> {
    let fetcher = HTTPFetcher(client: client, timeout: .seconds(5)).bodies()
    return { (id: String) in upstream.appending(path: "users/\(id)") } =>> fetcher
  }

  /// A Hummingbird application answering `GET /users/{id}` with a user's JSON after
  /// `delay`, counting its requests in `served`; `GET /served` answers that count.
  public static func application(
    port: Int, delay: Duration = .milliseconds(20), served: RequestCounter = RequestCounter(),
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    let router = Router()
    router.get("users/:id") { _, context -> Response in
      let id = try context.parameters.require("id")
      served.increment()
      try await Task.sleep(for: delay)
      return .json(User(id: id, name: "User \(id)", version: 0))
    }
    router.get("served") { _, _ in "\(served.value)" }
    return Application(
      router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
      onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) })
  }
}

/// A user as the upstream serves it.
public struct User: Codable, Sendable, Equatable {
  /// The user's id.
  public var id: String
  /// The user's name.
  public var name: String
  /// Incremented by each update (the staleness probe writes it).
  public var version: Int

  /// Creates a user.
  public init(id: String, name: String, version: Int) {
    self.id = id
    self.name = name
    self.version = version
  }
}

/// Counts requests from many threads.
public final class RequestCounter: Sendable {
  private let count = Mutex<Int>(0)
  /// A counter at zero.
  public init() {}
  /// Adds one.
  public func increment() { count.withLock { $0 += 1 } }
  /// The requests counted.
  public var value: Int { count.withLock { $0 } }
}

extension Response {
  /// A 200 response with `body` as JSON.
  static func json(_ data: Data) -> Response {
    Response(
      status: .ok, headers: [.contentType: "application/json"],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
  }

  /// A 200 response with `value` encoded as JSON.
  static func json(_ value: some Encodable) -> Response {
    json((try? JSONEncoder().encode(value)) ?? Data())
  }
}
