import AsyncHTTPClient
import Carlos
import CarlosHTTP
import CarlosPostgres
import Foundation
import PostgresNIO

/// The Carlos pipeline: `memory >>> postgres >>> upstream`, with the memory level
/// kept coherent across instances through PostgreSQL's `LISTEN`/`NOTIFY`.
public final class CarlosStore: UserStore {
  /// This instance's memory level.
  public let memory = MemoryCacheLevel<String, Data>(capacity: 100_000)
  /// The PostgreSQL level every instance shares; run it as a service.
  public let shared: PostgresCacheLevel<String>
  private let coherent: CoherentCache<MemoryCacheLevel<String, Data>>
  private let cache: BasicCache<String, Data>

  /// A store over `postgres` (namespace `namespace`) and `upstream`, fed by `listener`.
  public init(
    postgres: PostgresClient, listener: PostgresInvalidationListener, upstream: URL,
    client: HTTPClient, namespace: String = "users"
  ) throws {
    shared = try PostgresCacheLevel<String>(
      client: postgres,
      options: PostgresCacheOptions(namespace: namespace, defaultExpiry: .after(.seconds(300))))
    coherent = CoherentCache(upper: memory, lower: shared, listener: listener)
    cache = coherent >>> Upstream.users(at: upstream, client: client)
  }

  /// The user, from memory, else PostgreSQL, else the upstream.
  public func user(_ id: String) async throws -> Data { try await cache.get(id) }

  /// Replaces the user in memory and PostgreSQL; other instances drop their copy.
  public func update(_ id: String, to json: Data) async throws {
    try await cache.set(json, forKey: id)
  }

  /// Empties PostgreSQL's namespace and every instance's memory.
  public func clear() async throws {
    try await shared.clearAll().value
    memory.clear()
  }
}
