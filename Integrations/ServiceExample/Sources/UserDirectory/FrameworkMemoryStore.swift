import AsyncHTTPClient
import Carlos
import CarlosHTTP
import Foundation
import Hummingbird

/// Hummingbird's own in-memory store in front of the upstream, written the way its
/// documentation suggests: read the key, on a miss fetch and `set` it with an expiry.
public struct FrameworkMemoryStore: UserStore {
  /// The framework's store; run it as a service (it tidies expired keys).
  public let persist = MemoryPersistDriver()
  private let origin: BasicCache<String, Data>

  /// A store reading users from `upstream` with `client`, cached for five minutes.
  public init(upstream: URL, client: HTTPClient) {
    origin = Upstream.users(at: upstream, client: client)
  }

  /// The user, from memory or else from the upstream.
  public func user(_ id: String) async throws -> Data {
    if let cached = try await persist.get(key: id, as: Data.self) { return cached }
    let fetched = try await origin.get(id)
    try await persist.set(key: id, value: fetched, expires: .seconds(300))
    return fetched
  }

  /// Replaces the user in this instance's memory (other instances keep theirs).
  public func update(_ id: String, to json: Data) async throws {
    try await persist.set(key: id, value: json, expires: .seconds(300))
  }

  /// Fails: the framework's store cannot be emptied.
  public func clear() async throws {
    // Hummingbird's PersistDriver has no clear.
    throw NotSupported("clear")
  }
}
