import Foundation

/// A composition that serves a value older than a refresh age at once and reloads
/// it from the level below in the background (Caffeine's refresh-after-write,
/// HTTP's stale-while-revalidate). Create one with
/// ``TimedCacheLevel/refreshing(from:after:clock:)``.
///
/// - get: a hit in ``upper`` is answered at once. When the value was stored at
///   least ``age`` ago, a reload from ``lower`` starts in the background — one per
///   key at a time — and its value replaces the old one in ``upper`` (unless a set
///   or remove of the key went through this level meanwhile). When the reload fails,
///   the old value stays and the failure is logged as a warning. A miss in ``upper``
///   is answered by ``lower``, exactly as in `upper >>> lower`.
/// - set, remove, clear, removeExpired and memory warnings behave as in `upper >>> lower`.
///
/// Refreshing does not extend a value's life: a value past its expiry is a miss,
/// refresh age or not. Give a refresh age shorter than the expiry, so popular
/// values are reloaded before they expire.
public final class RefreshCache<Upper: TimedCacheLevel, Lower: CacheLevel>: CacheLevel
where Upper.KeyType: Hashable, Lower.KeyType == Upper.KeyType, Lower.OutputType == Upper.OutputType
{
  public typealias KeyType = Upper.KeyType
  public typealias OutputType = Upper.OutputType

  /// The level values are served from.
  public let upper: Upper
  /// The level values are reloaded from.
  public let lower: Lower
  /// How old a value must be for a hit to start its reload.
  public let age: Duration
  /// Where the level reads the time; give it the upper level's clock.
  public let clock: any CacheClock

  private let versions = WriteVersions()
  private let composed: BasicCache<KeyType, OutputType>
  /// The keys being reloaded.
  private let reloading = Lock<Set<KeyType>>([])

  /// Creates a level that serves from `upper` and reloads values older than `age` from `lower`.
  public init(upper: Upper, lower: Lower, age: Duration, clock: any CacheClock = SystemClock()) {
    self.upper = upper
    self.lower = lower
    self.age = age
    self.clock = clock
    composed = upper.compose(lower, versions: versions)
  }

  /// Answers from the upper level, reloading an old value in the background, or
  /// from the lower level on a miss.
  public func get(_ key: KeyType) -> Future<OutputType> {
    serve(key, hit: \.value) { [upper, lower, versions] in
      composedGet(key, upper: upper, lower: lower, versions: versions)
    }
  }

  /// Answers like ``get(_:)`` (reloading an old value in the background too), naming
  /// the level that had the value.
  public func getWithSource(_ key: KeyType) -> Future<CacheAnswer<OutputType>> {
    let source = upper.levelName
    return serve(key) { found in
      CacheAnswer(
        value: found.value, source: source, wasWrittenBack: false, isNamed: false,
        expiresAt: found.expiresAt)
    } miss: { [upper, lower, versions] in
      composedGetWithSource(key, upper: upper, lower: lower, versions: versions)
    }
  }

  /// Answers `hit` of the upper level's entry, reloading it in the background when it
  /// is old, or `miss()` when the upper level has none.
  private func serve<Answer: Sendable>(
    _ key: KeyType, hit: @escaping @Sendable (CacheEntry<OutputType>) -> Answer,
    miss: @escaping @Sendable () -> Future<Answer>
  ) -> Future<Answer> {
    let entry = upper.entry(forKey: key)
    if case .success(let found)? = entry.result {
      reloadIfOld(key, storedAt: found.storedAt)
      return Future(hit(found))
    }
    let promise = Promise<Answer>()
    promise.onCancel { entry.cancel() }
    entry.onCompletion { [self] result in
      switch result {
      case .success(let found):
        reloadIfOld(key, storedAt: found.storedAt)
        promise.succeed(hit(found))
      case .cancelled:
        promise.cancel()
      case .error:
        if promise.future.isCompleted { return }
        // Asks the upper level once more (a cheap miss), then the lower one, as `upper >>> lower` does.
        let fetched = miss()
        promise.onCancel { fetched.cancel() }
        promise.mimic(fetched)
      }
    }
    return promise.future
  }

  /// Starts a reload of `key` when its value is at least `age` old and none is running.
  private func reloadIfOld(_ key: KeyType, storedAt: Date) {
    let now = CacheInstant(nanoseconds: clock.nanoseconds())
    guard now >= CacheInstant(storedAt).adding(age) else { return }
    let started = reloading.withLock { $0.insert(key).inserted }
    guard started else { return }
    let version = versions.version(of: key)
    lower.getWithSource(key).onCompletion { [self] result in
      switch result {
      case .success(let answer):
        writeBack(
          answer.value, key: key, into: upper, expiringBy: answer.expiresAt,
          ifUnchangedSince: version, versions: versions)
      case .error(let error):
        CarlosLogger.log(
          "Refreshing a value failed; the old value is kept: \(error)", .warning,
          metadata: ["key": CarlosLogger.key(key)])
      case .cancelled:
        CarlosLogger.log("Refreshing a value was cancelled; the old value is kept", .warning)
      }
      _ = reloading.withLock { $0.remove(key) }
    }
  }

  /// Whether a reload of `key` is running.
  public func isReloading(_ key: KeyType) -> Bool {
    reloading.withLock { $0.contains(key) }
  }

  /// Stores `value` in both levels, as `upper >>> lower` does.
  @discardableResult
  public func set(_ value: OutputType, forKey key: KeyType) -> Future<Void> {
    composed.set(value, forKey: key)
  }

  /// Stores `value` in both levels until `expiry`.
  @discardableResult
  public func set(_ value: OutputType, forKey key: KeyType, expiry: Expiry) -> Future<Void> {
    composed.set(value, forKey: key, expiry: expiry)
  }

  /// Removes `key` from both levels.
  @discardableResult
  public func remove(_ key: KeyType) -> Future<Void> {
    composed.remove(key)
  }

  /// Removes the expired values of both levels.
  @discardableResult
  public func removeExpired() -> Future<Void> {
    composed.removeExpired()
  }

  /// Clears both levels.
  public func clear() {
    composed.clear()
  }

  /// Forwards the memory warning to both levels.
  public func onMemoryWarning() {
    composed.onMemoryWarning()
  }
}

extension TimedCacheLevel where KeyType: Hashable {
  /// Returns `self >>> lower` in which a value older than `age` is still served at
  /// once, and reloaded from `lower` in the background (see ``RefreshCache``).
  ///
  /// ```swift
  /// let memory = MemoryCacheLevel<URL, Data>(expiration: .afterWrite(.seconds(600)))
  /// let cache = memory.refreshing(from: disk >>> NetworkFetcher(), after: .seconds(60))
  /// ```
  public func refreshing<Lower: CacheLevel>(
    from lower: Lower,
    after age: Duration,
    clock: any CacheClock = SystemClock()
  ) -> RefreshCache<Self, Lower> where Lower.KeyType == KeyType, Lower.OutputType == OutputType {
    RefreshCache(upper: self, lower: lower, age: age, clock: clock)
  }
}
