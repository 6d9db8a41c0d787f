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
///
/// Expiry: each value is stored with when it was stored and when it expires
/// (the level's `expiration` policy, or the expiry given to
/// ``set(_:forKey:expiry:)``). An expired value is a miss and is removed when
/// read or by ``removeExpired()``. ``ExpirationPolicy/afterAccess(_:)`` counts
/// from the write, as ``ExpirationPolicy/afterWrite(_:)`` does. Time comes from
/// `clock` and never goes back for a level, so a clock set back cannot bring an
/// expired value back; a deadline too far away to represent (after the year
/// 2262) means "never". Values written before expiry existed (plain data under
/// the key) never expire.
///
/// ```swift
/// let tokens = UserDefaultsCacheLevel<String, String>(
///   name: "com.example.tokens", expiration: .afterWrite(.seconds(3600)))
/// tokens.set(token, forKey: "api")                                  // an hour
/// tokens.set(refresh, forKey: "refresh", expiry: .at(refreshExpiry)) // its own
/// ```
public final class UserDefaultsCacheLevel<
  Key: StringConvertible & Sendable, Value: Codable & Sendable
>: TimedCacheLevel, InsertingCacheLevel {
  public typealias KeyType = Key
  public typealias OutputType = Value

  /// The level's name in answers, statistics and log messages: `UserDefaultsCacheLevel`.
  public var levelName: String { "UserDefaultsCacheLevel" }

  /// The earlier of `deadline` and the moment this level's expiration policy gives a
  /// value stored now: how long a composition keeps a copy of a value from below.
  public func expiry(forCopyOf value: Value, forKey key: Key, expiringAt deadline: Date) -> Expiry {
    expiration.expiry(
      ofCopyOf: value, forKey: key, storedAt: CacheInstant(nanoseconds: clock.nanoseconds()),
      expiringAt: deadline)
  }

  /// The suite's name, as passed to the initializer.
  public let name: String
  /// How long values stay valid when `set` is given no expiry of its own.
  public let expiration: ExpirationPolicy<Key, Value>
  /// Where the level reads the time.
  public let clock: any CacheClock

  /// The prefix of every key this level writes, so that `clear()` can tell its
  /// own entries from anything else in the suite.
  private static var keyPrefix: String { "carlos.cache." }

  /// `UserDefaults` is not `Sendable` on Linux: every access to it goes through
  /// this lock. `nil` when the level was refused (see `refusal`).
  private let defaults: Lock<UserDefaults?>
  /// Why every operation fails, when it does: an unusable name, or a suite file
  /// other users could write.
  private let refusal: UserDefaultsCacheLevelError?
  /// Counts hits and misses.
  private let recorder = StatisticsRecorder()
  /// The level's observers; events are emitted under `defaults`' lock, in order.
  private let hub = EventHub<String>()
  /// The latest time read from `clock`, so that time never goes back for the level.
  private let timeline = Lock(MonotonicReading())

  /// Creates a level on the `UserDefaults` suite called `name`.
  ///
  /// Two levels with the same name share their values, also across runs of the
  /// program. A name that cannot be a suite of its own (empty, `NSGlobalDomain`,
  /// the app's bundle identifier, or containing `/` or `..`) makes every
  /// operation fail with ``UserDefaultsCacheLevelError/invalidSuiteName(_:)``.
  /// Values expire as `expiration` says (never, by default), by the time
  /// `clock` tells (the system's clock by default).
  ///
  /// On Linux the suite is the file `<name>.plist` in `$XDG_CONFIG_HOME` (or
  /// `~/.config`), written with mode `0600`. When that folder or file can be
  /// written by its group or by everyone, or another user owns it, other users
  /// could read or plant values: every operation then fails with
  /// ``UserDefaultsCacheLevelError/unsafeFolder(path:mode:owner:)``, unless
  /// `allowSharedFolder` is `true`.
  public init(
    name: String,
    expiration: ExpirationPolicy<Key, Value> = .never,
    clock: any CacheClock = SystemClock(),
    allowSharedFolder: Bool = false
  ) {
    self.name = name
    self.expiration = expiration
    self.clock = clock
    if !Self.isUsableSuiteName(name) {
      refusal = .invalidSuiteName(name)
    } else if !allowSharedFolder, let unsafe = Self.unsafeSuitePath(name) {
      refusal = unsafe
    } else {
      refusal = nil
    }
    defaults = Lock(refusal == nil ? UserDefaults(suiteName: name) : nil)
  }

  /// Why the files of the suite `name` are unsafe, or `nil`; `environment` gives
  /// `XDG_CONFIG_HOME`, and `home` the folder `.config` is in otherwise.
  static func unsafeSuitePath(
    _ name: String,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    home: String = FileManager.default.homeDirectoryForCurrentUser.path
  ) -> UserDefaultsCacheLevelError? {
    #if os(Linux) || os(Android)
    var folder = home + "/.config"
    if let configured = environment["XDG_CONFIG_HOME"], configured.hasPrefix("/") {
      folder = configured
    }
    for path in [folder, folder + "/" + name + ".plist"] {
      if let (mode, owner) = SharedPathCheck.unsafe(path) {
        return .unsafeFolder(path: path, mode: mode, owner: owner)
      }
    }
    #endif
    return nil
  }

  /// Returns the value stored under `key`; an expired value is a miss (and is removed).
  public func get(_ key: Key) -> Future<Value> {
    switch load(key) {
    case .success(let found):
      recorder.recordHit()
      return Future(found.value)
    case .failure(let error):
      recorder.recordMiss()
      return Future(error)
    }
  }

  /// Returns the value stored under `key` with when it was stored and when it
  /// expires; fails like ``get(_:)``.
  ///
  /// A value written before expiry existed never expires, and its storage time
  /// is unknown: `storedAt` is `Date.distantPast`.
  ///
  /// ```swift
  /// let entry = try await tokens.entry(forKey: "api").value
  /// if let expiresAt = entry.expiresAt { print("valid until \(expiresAt)") }
  /// ```
  public func entry(forKey key: Key) -> Future<CacheEntry<Value>> {
    switch load(key) {
    case .success(let found):
      recorder.recordHit()
      return Future(
        CacheEntry(
          value: found.value,
          storedAt: found.record.storedAt.map { CacheInstant(nanoseconds: $0).date }
            ?? .distantPast,
          expiresAt: found.record.expiresAt.map { CacheInstant(nanoseconds: $0).date }))
    case .failure(let error):
      recorder.recordMiss()
      return Future(error)
    }
  }

  /// The value stored under `key` and its record, or why there is none.
  private func load(_ key: Key) -> Result<
    (value: Value, record: UserDefaultsStoredRecord), any Error
  > {
    let storageKey = Self.keyPrefix + CanonicalKey.string(for: key)
    let now = currentTime().nanoseconds
    let lookup: Lookup = defaults.withLock { defaults in
      guard let defaults else { return .unusableSuite }
      guard let stored = defaults.object(forKey: storageKey) else { return .missing }
      // Something else under our key cannot be one of our values.
      guard let record = UserDefaultsStoredRecord(stored) else { return .undecodable }
      if record.isExpired(at: now) {
        defaults.removeObject(forKey: storageKey)
        defaults.synchronize()
        hub.emit(.expired(String(storageKey.dropFirst(Self.keyPrefix.count))))
        return .missing
      }
      return .found(record)
    }
    switch lookup {
    case .unusableSuite:
      return .failure(unusable)
    case .missing:
      return .failure(FetchError.valueNotInCache)
    case .undecodable:
      return .failure(FetchError.invalidCachedData)
    case .found(let record):
      guard let value = Self.decode(record.data) else {
        return .failure(FetchError.invalidCachedData)
      }
      return .success((value, record))
    }
  }

  /// What a look-up in the suite found.
  private enum Lookup {
    case unusableSuite
    case missing
    case undecodable
    case found(UserDefaultsStoredRecord)
  }

  /// Stores `value` under `key` and writes the suite to disk; the value expires
  /// as the level's `expiration` policy says.
  ///
  /// Fails with ``UserDefaultsCacheLevelError/encodingFailed(_:)`` when the value
  /// cannot be encoded.
  @discardableResult
  public func set(_ value: Value, forKey key: Key) -> Future<Void> {
    set(value, forKey: key, expiry: expiration.isNever ? .never : expiration.expiry(of: key, value))
  }

  /// Stores `value` under `key` like ``set(_:forKey:)``, valid until `expiry`
  /// instead of what the level's policy says.
  ///
  /// An expiry already past (a zero or negative duration, a date not after now)
  /// stores nothing: it removes any older value of `key`, like ``remove(_:)``,
  /// and succeeds.
  ///
  /// ```swift
  /// tokens.set(token, forKey: "api", expiry: .after(.seconds(900)))
  /// ```
  @discardableResult
  public func set(_ value: Value, forKey key: Key, expiry: Expiry) -> Future<Void> {
    store(value, forKey: key, expiry: expiry, onlyIfAbsent: false).map { _ in () }
  }

  /// Stores `value` under `key` unless a value (not expired) is stored there, under
  /// the suite's lock; succeeds with whether it stored. The value expires as the
  /// level's `expiration` policy says.
  @discardableResult
  public func insertIfAbsent(_ value: Value, forKey key: Key) -> Future<Bool> {
    insertIfAbsent(
      value, forKey: key,
      expiry: expiration.isNever ? .never : expiration.expiry(of: key, value))
  }

  /// Stores `value` under `key`, valid until `expiry`, unless a value (not expired) is
  /// stored there; succeeds with whether it stored. An expiry already past stores
  /// nothing and succeeds with false.
  @discardableResult
  public func insertIfAbsent(_ value: Value, forKey key: Key, expiry: Expiry) -> Future<Bool> {
    store(value, forKey: key, expiry: expiry, onlyIfAbsent: true)
  }

  /// Stores `value` (when `onlyIfAbsent`, only where no live value is stored);
  /// succeeds with whether it stored.
  private func store(
    _ value: Value, forKey key: Key, expiry: Expiry, onlyIfAbsent: Bool
  ) -> Future<Bool> {
    let now = currentTime()
    let deadline = expiry.deadline(storedAt: now)
    if let deadline, deadline <= now {
      return onlyIfAbsent ? Future(false) : remove(key).map { _ in false }
    }
    let data: Data
    do {
      data = try Self.encode(value)
    } catch {
      return Future(UserDefaultsCacheLevelError.encodingFailed(String(describing: error)))
    }
    let record = UserDefaultsStoredRecord(
      data: data,
      storedAt: now.nanoseconds,
      // A deadline that saturated to the end of representable time never comes.
      expiresAt: deadline.flatMap { $0 == .distantFuture ? nil : $0.nanoseconds })
    let storageKey = Self.keyPrefix + CanonicalKey.string(for: key)
    let stored: Bool? = defaults.withLock { defaults in
      guard let defaults else { return nil }
      if onlyIfAbsent, let existing = defaults.object(forKey: storageKey),
        let existingRecord = UserDefaultsStoredRecord(existing),
        !existingRecord.isExpired(at: now.nanoseconds)
      {
        return false
      }
      defaults.set(record.propertyList, forKey: storageKey)
      defaults.synchronize()
      hub.emit(.set(String(storageKey.dropFirst(Self.keyPrefix.count))))
      return true
    }
    guard let stored else { return Future(unusable) }
    return Future(stored)
  }

  /// Removes the value stored under `key`, and writes the suite to disk.
  @discardableResult
  public func remove(_ key: Key) -> Future<Void> {
    let storageKey = Self.keyPrefix + CanonicalKey.string(for: key)
    let removed: Bool = defaults.withLock { defaults in
      guard let defaults else { return false }
      let existed = defaults.object(forKey: storageKey) != nil
      defaults.removeObject(forKey: storageKey)
      defaults.synchronize()
      if existed { hub.emit(.removed(String(storageKey.dropFirst(Self.keyPrefix.count)))) }
      return true
    }
    return removed ? Future() : Future(unusable)
  }

  /// Removes every expired value of the level's suite, and writes the suite to
  /// disk when something was removed.
  ///
  /// ```swift
  /// try await tokens.removeExpired().value
  /// ```
  @discardableResult
  public func removeExpired() -> Future<Void> {
    let now = currentTime().nanoseconds
    let usable: Bool = defaults.withLock { defaults in
      guard let defaults else { return false }
      let stored = defaults.persistentDomain(forName: name) ?? [:]
      var removed = false
      for (key, value) in stored where key.hasPrefix(Self.keyPrefix) {
        if let record = UserDefaultsStoredRecord(value), record.isExpired(at: now) {
          defaults.removeObject(forKey: key)
          hub.emit(.expired(String(key.dropFirst(Self.keyPrefix.count))))
          removed = true
        }
      }
      if removed { defaults.synchronize() }
      return true
    }
    return usable ? Future() : Future(unusable)
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
      hub.emit(.cleared)
    }
  }

  /// Keeps everything (the level holds nothing in memory it could drop), and
  /// tells the observers.
  public func onMemoryWarning() {
    hub.emit(.memoryWarning)
  }

  /// What the level has done since it was created: hits and misses.
  public var statistics: CacheStatistics {
    recorder.snapshot
  }

  /// Calls `callback` with every event of the level (set, removed, expired,
  /// cleared, memory warning), keys as their strings in Unicode NFC, until the
  /// token is cancelled or released.
  public func observe(_ callback: @escaping @Sendable (CacheEvent<String>) -> Void)
    -> ObservationToken
  {
    hub.observeAll(callback)
  }

  /// Calls `callback` with the events about `key`, clears and memory warnings.
  public func observe(
    key: Key, _ callback: @escaping @Sendable (CacheEvent<String>) -> Void
  ) -> ObservationToken {
    hub.observe(key: CanonicalKey.string(for: key), callback)
  }

  /// Waits until every event emitted so far has reached the observers (for tests).
  package func eventsDelivered() async {
    await hub.afterDelivery()
  }

  /// The time now for the level: never earlier than an earlier answer.
  private func currentTime() -> CacheInstant {
    timeline.withLock { $0.read(clock) }
  }

  /// Why an operation of a refused level fails.
  private var unusable: UserDefaultsCacheLevelError {
    refusal ?? .invalidSuiteName(name)
  }

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
