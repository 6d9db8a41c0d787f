import AsyncHTTPClient
import Carlos
import CarlosHTTP
import Foundation

/// No cache: every read asks the upstream.
public struct UpstreamOnlyStore: UserStore {
  private let origin: BasicCache<String, Data>

  /// A store reading users from `upstream` with `client`.
  public init(upstream: URL, client: HTTPClient) {
    origin = Upstream.users(at: upstream, client: client)
  }

  /// The user, from the upstream.
  public func user(_ id: String) async throws -> Data { try await origin.get(id) }
  /// Fails: there is nowhere to write.
  public func update(_ id: String, to json: Data) async throws { throw NotSupported("update") }
  /// Does nothing: nothing is cached.
  public func clear() async throws {}
}
