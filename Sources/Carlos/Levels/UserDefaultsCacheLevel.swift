import Foundation

/// A persistent level that keeps its values in a `UserDefaults` suite of its own.
///
/// Values are encoded as JSON (`Data` values are stored as they are) under the
/// key's ``StringConvertible/toString()`` in Unicode NFC, so canonically
/// equivalent spellings of a key (`"é"` precomposed or decomposed) are one key. A missing key fails with
/// ``FetchError/valueNotInCache``; a stored value that cannot be decoded as
/// `Value` fails with ``FetchError/invalidCachedData``. ``clear()`` removes only
/// the values this kind of level wrote into its suite: the standard defaults
/// and other suites are never touched. Values survive process restarts
/// (the suite is written to disk after every change).
///
/// Meant for small values (settings, tokens, small JSON documents): the whole
/// suite is rewritten on each change. Safe to use from many threads.
public final class UserDefaultsCacheLevel<
  Key: StringConvertible & Sendable, Value: Codable & Sendable
>: CacheLevel {
  public typealias KeyType = Key
  public typealias OutputType = Value

  /// The suite's name, as passed to the initializer.
  public let name: String

  /// The prefix of every key this level writes, so that `clear()` can tell its
  /// own entries from anything else in the suite.
  private static var keyPrefix: String { "carlos.cache." }

  /// `UserDefaults` is not `Sendable` on Linux: every access to it goes through
  /// this lock. `nil` when `name` is not a usable suite name.
  private let defaults: Lock<UserDefaults?>

  /// Creates a level on the `UserDefaults` suite called `name`.
  ///
  /// Two levels with the same name share their values, also across runs of the
  /// program. A name that cannot be a suite of its own (empty, `NSGlobalDomain`,
  /// the app's bundle identifier, or containing `/` or `..`) makes every
  /// operation fail with ``UserDefaultsCacheLevelError/invalidSuiteName(_:)``.
  public init(name: String) {
    self.name = name
    defaults = Lock(Self.isUsableSuiteName(name) ? UserDefaults(suiteName: name) : nil)
  }

  /// Returns the value stored under `key`.
  public func get(_ key: Key) -> Future<Value> {
    let storageKey = Self.keyPrefix + CanonicalKey.string(for: key)
    let lookup: Lookup = defaults.withLock { defaults in
      guard let defaults else { return .unusableSuite }
      guard let stored = defaults.object(forKey: storageKey) else { return .missing }
      // Something other than data under our key cannot be one of our values.
      guard let data = stored as? Data else { return .undecodable }
      return .found(data)
    }
    switch lookup {
    case .unusableSuite:
      return Future(UserDefaultsCacheLevelError.invalidSuiteName(name))
    case .missing:
      return Future(FetchError.valueNotInCache)
    case .undecodable:
      return Future(FetchError.invalidCachedData)
    case .found(let data):
      guard let value = Self.decode(data) else { return Future(FetchError.invalidCachedData) }
      return Future(value)
    }
  }

  /// What a look-up in the suite found.
  private enum Lookup {
    case unusableSuite
    case missing
    case undecodable
    case found(Data)
  }

  /// Stores `value` under `key` and writes the suite to disk.
  ///
  /// Fails with ``UserDefaultsCacheLevelError/encodingFailed(_:)`` when the value
  /// cannot be encoded.
  @discardableResult
  public func set(_ value: Value, forKey key: Key) -> Future<Void> {
    let data: Data
    do {
      data = try Self.encode(value)
    } catch {
      return Future(UserDefaultsCacheLevelError.encodingFailed(String(describing: error)))
    }
    let storageKey = Self.keyPrefix + CanonicalKey.string(for: key)
    let stored: Bool = defaults.withLock { defaults in
      guard let defaults else { return false }
      defaults.set(data, forKey: storageKey)
      defaults.synchronize()
      return true
    }
    return stored ? Future() : Future(UserDefaultsCacheLevelError.invalidSuiteName(name))
  }

  /// Removes every value this level's suite holds for Carlos, and writes the suite to disk.
  public func clear() {
    defaults.withLock { defaults in
      guard let defaults else { return }
      let stored = defaults.persistentDomain(forName: name) ?? [:]
      for key in stored.keys where key.hasPrefix(Self.keyPrefix) {
        defaults.removeObject(forKey: key)
      }
      defaults.synchronize()
    }
  }

  /// Does nothing: the level keeps nothing in memory that it could drop.
  public func onMemoryWarning() {}

  private static func isUsableSuiteName(_ name: String) -> Bool {
    !name.isEmpty
      && name != "NSGlobalDomain"
      && name != Bundle.main.bundleIdentifier
      && !name.contains("/")
      && !name.contains("..")
      && !name.contains("\0")
  }

  private static func encode(_ value: Value) throws -> Data {
    if let data = value as? Data { return data }
    return try JSONEncoder().encode(value)
  }

  private static func decode(_ data: Data) -> Value? {
    if Value.self == Data.self { return data as? Value }
    return try? JSONDecoder().decode(Value.self, from: data)
  }
}
