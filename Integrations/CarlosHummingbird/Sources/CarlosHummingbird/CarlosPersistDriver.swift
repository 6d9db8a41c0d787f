#if Hummingbird
import Carlos
import Foundation
import Hummingbird
import ServiceLifecycle

/// A Hummingbird `PersistDriver` over a Carlos pipeline of `Data` keyed by `String`,
/// such as one memory level or `memory >>> disk`: any level that can insert atomically
/// (`InsertingCacheLevel`) and tell an entry's expiry (`TimedCacheLevel`).
///
/// Values are encoded per call with `JSONEncoder` and decoded with `JSONDecoder`.
///
/// - `create` stores through the pipeline's atomic `insertIfAbsent`: of many callers
///   creating one key at once exactly one succeeds; the others, and any create of a key
///   that holds a value, fail with `PersistError.duplicate`.
/// - `set` overwrites. With `expires == nil` it keeps the expiry of the value it
///   replaces (read with `entry(forKey:)` just before; a value with none, or no value,
///   gets the pipeline's own policy).
/// - `get` answers `nil` for a missing or expired key and fails with
///   `PersistError.invalidConversion` when the stored value does not decode as the
///   asked type; `getWithTTL` also answers the time left before the value expires.
/// - `remove` removes the key from every level.
/// - An `expires` becomes one moment, read from the system's clock when the call
///   starts: every level of the pipeline expires the value at that moment.
/// - As a `Service`, the driver removes expired values every `tidyInterval` (when one
///   is given) until graceful shutdown.
/// - Any other failure of the pipeline (a database down) is thrown unchanged.
public struct CarlosPersistDriver<Pipeline: InsertingCacheLevel & TimedCacheLevel>: PersistDriver
where Pipeline.KeyType == String, Pipeline.OutputType == Data {
  /// The pipeline the driver reads and writes.
  public let pipeline: Pipeline
  /// How often `run()` removes expired values from the pipeline; `nil` for never.
  public let tidyInterval: Duration?

  /// A driver over `pipeline` that, while it runs as a service, removes expired values
  /// every `tidyInterval` (never when `nil`).
  public init(_ pipeline: Pipeline, tidyInterval: Duration? = .seconds(600)) {
    self.pipeline = pipeline
    self.tidyInterval = tidyInterval
  }

  /// Stores `value` under `key` unless a value (not expired) is stored there, in which
  /// case it throws `PersistError.duplicate`; it expires after `expires` when given (a
  /// zero or negative `expires` stores nothing, the value being expired at once).
  public func create<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?)
    async throws
  {
    let data = try JSONEncoder().encode(value)
    if let expires, expires <= .zero {
      // A value that expires at once is never seen, so none is stored; the create still
      // fails on a live value, as any create does.
      if try await lookUp(key, { try await pipeline.entry(forKey: $0) }) != nil {
        throw PersistError.duplicate
      }
      return
    }
    let stored: Bool
    if let expires {
      stored = try await pipeline.insertIfAbsent(data, forKey: key, expiry: .lasting(expires))
    } else {
      stored = try await pipeline.insertIfAbsent(data, forKey: key)
    }
    guard stored else { throw PersistError.duplicate }
  }

  /// Stores `value` under `key`, replacing any value; it expires after `expires` when
  /// given, or when the value it replaces would have.
  public func set<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?)
    async throws
  {
    let data = try JSONEncoder().encode(value)
    if let expires {
      try await pipeline.set(data, forKey: key, expiry: .lasting(expires))
    } else if let expiresAt = try await existingExpiry(of: key) {
      try await pipeline.set(data, forKey: key, expiry: .at(expiresAt))
    } else {
      try await pipeline.set(data, forKey: key)
    }
  }

  /// The value stored under `key` decoded as `type`, or `nil` when there is none.
  public func get<Object: Codable & Sendable>(key: String, as type: Object.Type) async throws
    -> Object?
  {
    guard let data = try await lookUp(key, { try await pipeline.get($0) }) else { return nil }
    return try decode(type, from: data)
  }

  /// The value stored under `key` decoded as `type` with the time it has left before it
  /// expires (`nil` for never), or `nil` when there is none.
  public func getWithTTL<Object: Codable & Sendable>(key: String, as type: Object.Type)
    async throws -> (object: Object, ttl: Duration?)?
  {
    guard let entry = try await lookUp(key, { try await pipeline.entry(forKey: $0) }) else {
      return nil
    }
    let ttl = entry.expiresAt.map { Duration.seconds($0.timeIntervalSinceNow) }
    return (try decode(type, from: entry.value), ttl)
  }

  /// Removes the value stored under `key`, if any.
  public func remove(key: String) async throws {
    try await pipeline.remove(key)
  }

  /// Runs until graceful shutdown, removing expired values every ``tidyInterval``.
  public func run() async throws {
    guard let tidyInterval else {
      try? await gracefulShutdown()
      return
    }
    let pipeline = pipeline
    try? await cancelWhenGracefulShutdown {
      while !Task.isCancelled {
        try await Task.sleep(for: tidyInterval)
        try? await pipeline.removeExpired()
      }
    }
  }

  /// When the value stored under `key` expires; `nil` when it never does or there is none.
  private func existingExpiry(of key: String) async throws -> Date? {
    try await lookUp(key, { try await pipeline.entry(forKey: $0) })?.expiresAt
  }

  /// What `read` answers for `key`, or `nil` when the pipeline misses.
  private func lookUp<T>(_ key: String, _ read: (String) async throws -> T) async throws -> T? {
    do {
      return try await read(key)
    } catch let error as FetchError
      where error == .valueNotInCache || error == .noCacheLevelsRemaining
    {
      return nil
    }
  }

  /// `data` decoded as `type`, or `PersistError.invalidConversion`.
  private func decode<Object: Decodable>(_ type: Object.Type, from data: Data) throws -> Object {
    do {
      return try JSONDecoder().decode(type, from: data)
    } catch {
      throw PersistError.invalidConversion
    }
  }
}

extension Expiry {
  /// The moment `duration` from now, read once: every level of the pipeline gets this
  /// one deadline, however long the levels above or below take to store the value.
  fileprivate static func lasting(_ duration: Duration) -> Expiry {
    let (seconds, attoseconds) = duration.components
    return .at(Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18))
  }
}
#endif
