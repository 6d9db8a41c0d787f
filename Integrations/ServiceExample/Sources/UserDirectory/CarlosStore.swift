import AsyncHTTPClient
import Carlos
import CarlosHTTP
import CarlosPostgres
import Foundation
import PostgresNIO

/// The Carlos pipeline: `memory >>> postgres >>> upstream`, with the memory level
/// kept coherent across instances through PostgreSQL's `LISTEN`/`NOTIFY`: once a
/// write through any instance is acknowledged, no instance serves the value it
/// replaced more than the listener's staleness bound (1 s) later; while PostgreSQL
/// is unreachable, users are loaded from the upstream once per id per instance and
/// writes fail at once with ``CarlosPostgres/PostgresCacheLevelError/unavailable(operation:)``.
public final class CarlosStore: UserStore {
  /// This instance's memory level.
  public let memory: MemoryCacheLevel<String, Data>
  /// The PostgreSQL level every instance shares, over a client of its own; run it as
  /// a service.
  public let shared: PostgresCacheLevel<String>
  private let coherent: CoherentCache<MemoryCacheLevel<String, Data>>
  private let upstream: BasicCache<String, Data>
  /// With `singleFlight`, the load of a user missing everywhere, once across instances.
  private let flight: PostgresSingleFlight<String>?

  /// A store over the PostgreSQL server of `postgres` (namespace `namespace`) and
  /// `upstream`, fed by `listener`, keeping users for `lifetime`, and up to
  /// `memoryCapacity` bytes of them in memory.
  /// With `singleFlight`, a user missing from every level is loaded from the upstream
  /// by one instance only (``PostgresSingleFlight``), whatever number of instances
  /// miss it at once; with `refreshAhead` too, a user about to expire is reloaded by
  /// one instance while all keep serving the old copy.
  public init(
    postgres: PostgresClient.Configuration, listener: PostgresInvalidationListener, upstream: URL,
    client: HTTPClient, namespace: String = "users", lifetime: Duration = .seconds(300),
    singleFlight: Bool = false, refreshAhead: Duration? = nil, memoryCapacity: Int = 100_000
  ) throws {
    memory = MemoryCacheLevel(capacity: memoryCapacity)
    shared = try PostgresCacheLevel<String>(
      configuration: postgres,
      options: PostgresCacheOptions(namespace: namespace, defaultExpiry: .after(lifetime)))
    coherent = CoherentCache(upper: memory, lower: shared, listener: listener)
    self.upstream = Upstream.users(at: upstream, client: client)
    flight =
      singleFlight
      ? PostgresSingleFlight(level: shared, listener: listener, refreshAhead: refreshAhead) : nil
  }

  /// The user, from memory, else PostgreSQL, else the upstream (stored into
  /// PostgreSQL only if no write stored the user meanwhile).
  public func user(_ id: String) async throws -> Data {
    guard let flight else {
      return try await coherent.get(id) { [upstream] id in Loaded(try await upstream.get(id)) }
    }
    return try await coherent.get(id, through: flight) { [upstream] id in
      try await upstream.get(id)
    }
  }

  /// Replaces the user in memory and PostgreSQL; other instances drop their copy.
  public func update(_ id: String, to json: Data) async throws {
    try await coherent.set(json, forKey: id).value
  }

  /// Empties PostgreSQL's namespace and every instance's memory.
  public func clear() async throws {
    try await shared.clearAll().value
    memory.clear()
  }
}
