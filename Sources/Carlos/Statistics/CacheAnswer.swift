import Foundation

/// A value with the level that produced it, as ``CacheLevel/getWithSource(_:)`` answers.
///
/// ```swift
/// let cache = memory.recordingStatistics("memory") >>> disk.recordingStatistics("disk") >>> network
/// let answer = try await cache.getWithSource(url)
/// print("\(answer.source) answered; copied into the levels above: \(answer.wasWrittenBack)")
/// ```
public struct CacheAnswer<Value: Sendable>: Sendable {
  /// The value.
  public var value: Value
  /// The name of the level that produced the value: the name given with
  /// ``CacheLevel/named(_:)`` or ``CacheLevel/recordingStatistics(_:)`` or, for a level
  /// without one, its ``CacheLevel/levelName`` (its type's name; `closure` for a
  /// closure or async function standing in for a level).
  public var source: String
  /// Whether the value was written into the levels above the one that produced it.
  public var wasWrittenBack: Bool
  /// When the value expires in the level that produced it; `nil` when it never does or
  /// that level does not tell (only a ``TimedCacheLevel`` tells). A composition copies a
  /// value found below into the levels above with this expiry, so that no level keeps
  /// it longer than the one it came from.
  public var expiresAt: Date?
  /// Whether `source` is a name given by the user (the innermost given name wins).
  @usableFromInline var isNamed: Bool

  /// Creates an answer.
  public init(value: Value, source: String, wasWrittenBack: Bool = false, expiresAt: Date? = nil) {
    self.init(
      value: value, source: source, wasWrittenBack: wasWrittenBack, isNamed: true,
      expiresAt: expiresAt)
  }

  @usableFromInline
  init(value: Value, source: String, wasWrittenBack: Bool, isNamed: Bool, expiresAt: Date? = nil) {
    self.value = value
    self.source = source
    self.wasWrittenBack = wasWrittenBack
    self.isNamed = isNamed
    self.expiresAt = expiresAt
  }

  /// The same answer with its value transformed.
  @usableFromInline
  func map<T: Sendable>(_ transform: (Value) -> T) -> CacheAnswer<T> {
    CacheAnswer<T>(
      value: transform(value), source: source, wasWrittenBack: wasWrittenBack, isNamed: isNamed,
      expiresAt: expiresAt)
  }

  /// The same answer with another value.
  @usableFromInline
  func with<T: Sendable>(value: T) -> CacheAnswer<T> {
    map { _ in value }
  }
}

/// The names of level types, each worked out once: describing a type takes
/// microseconds, and a default ``CacheLevel/levelName`` is read on every answer.
private let levelTypeNames = Lock<[ObjectIdentifier: String]>([:])

extension CacheLevel {
  /// The name of a level without a given one: its type's name without generic arguments.
  static var unnamedSource: String {
    let type = ObjectIdentifier(Self.self)
    if let name = levelTypeNames.withLock({ $0[type] }) { return name }
    let name = String(String(describing: Self.self).prefix { $0 != "<" })
    levelTypeNames.withLock { $0[type] = name }
    return name
  }

  /// Answers like ``CacheLevel/get(_:)``, naming this level as the source.
  @inlinable
  public func getWithSource(_ key: KeyType) -> Future<CacheAnswer<OutputType>> {
    get(key).map {
      CacheAnswer(value: $0, source: levelName, wasWrittenBack: false, isNamed: false)
    }
  }
}

extension TimedCacheLevel {
  /// Answers like ``TimedCacheLevel/entry(forKey:)``, naming this level as the source and
  /// telling when the value expires.
  @inlinable
  public func getWithSource(_ key: KeyType) -> Future<CacheAnswer<OutputType>> {
    let entry = entry(forKey: key)
    let source = levelName
    @Sendable func answer(_ found: CacheEntry<OutputType>) -> CacheAnswer<OutputType> {
      CacheAnswer(
        value: found.value, source: source, wasWrittenBack: false, isNamed: false,
        expiresAt: found.expiresAt)
    }
    // A level that answers at once (memory, disk) needs no callback.
    if case .success(let found)? = entry.result { return Future(answer(found)) }
    return entry.map(answer)
  }
}
