/// A fetcher made of a closure: it gets values and stores nothing.
///
/// ```swift
/// let origin = BasicFetcher(name: "origin") { (key: String) in try await load(key) }
/// ```
public struct BasicFetcher<Key: Sendable, Value: Sendable>: Fetcher {
  public typealias KeyType = Key
  public typealias OutputType = Value

  @usableFromInline let getClosure: @Sendable (Key) -> Future<Value>
  /// The fetcher's name (see ``CacheLevel/levelName``).
  public let levelName: String
  /// Whether `levelName` was given rather than a default.
  @usableFromInline let isNamed: Bool
  /// The identity every copy of this fetcher shares, for ``CacheLevel/get(_:orLoad:)``.
  @usableFromInline let identity = LevelIdentity()

  /// Creates a fetcher that answers `get(_:)` with `getClosure`, named `name` (by
  /// default `BasicFetcher`) in ``CacheLevel/getWithSource(_:)`` answers and logs.
  @inlinable
  public init(name: String? = nil, getClosure: @escaping @Sendable (Key) -> Future<Value>) {
    self.init(name: name, default: "BasicFetcher", getClosure: getClosure)
  }

  @inlinable
  init(name: String?, default: String, getClosure: @escaping @Sendable (Key) -> Future<Value>) {
    self.getClosure = getClosure
    self.levelName = name ?? `default`
    self.isNamed = name != nil
  }

  /// Creates a fetcher that answers `get(_:)` with the async function `fetch`.
  ///
  /// Each get starts `fetch` at once on the calling thread (it runs there until its
  /// first suspension); cancelling the get cancels its task, and a `CancellationError`
  /// it throws ends the get cancelled.
  /// Named `name`, by default `closure`.
  @inlinable
  public init(name: String? = nil, fetch: @escaping @Sendable (Key) async throws -> Value) {
    self.init(name: name, default: "closure") { key in startAsync { try await fetch(key) } }
  }

  /// The identity every copy of this fetcher shares: copies of one fetcher are one
  /// level for ``CacheLevel/get(_:orLoad:)``, whose concurrent callers of a key share
  /// a load.
  public var _loadIdentity: ObjectIdentifier? { ObjectIdentifier(identity) }

  /// Gets the value for `key` (see ``CacheLevel/get(_:)``).
  @inlinable
  public func get(_ key: Key) -> Future<Value> {
    getClosure(key)
  }

  /// Gets the value for `key`, naming this fetcher as the source.
  @inlinable
  public func getWithSource(_ key: Key) -> Future<CacheAnswer<Value>> {
    getClosure(key).map { [levelName, isNamed] in
      CacheAnswer(value: $0, source: levelName, wasWrittenBack: false, isNamed: isNamed)
    }
  }
}
