#if Postgres
import Carlos
import Foundation

/// Get-or-load with one origin load per key across every process that shares a
/// ``PostgresCacheLevel``'s namespace: N instances that miss one key at once ask the
/// origin once.
///
/// ```swift
/// let flight = PostgresSingleFlight(level: shared, listener: listener)
/// let page = try await flight.get("/index.html") { key in
///   Loaded(try await origin.page(key), expiry: .after(.seconds(60)))
/// }
/// ```
///
/// - Within the process, concurrent gets of one key share one pass; each caller can
///   cancel its own wait alone.
/// - A pass reads the stored value and, on a miss, takes the key's lease in the same
///   statement (a row of `carlos_cache_leases`: an owner and a deadline `lease` ahead
///   on the server's clock, taken atomically). The holder reads once more (the value
///   may have just been stored), loads, stores the value unless a write stored one
///   meanwhile (a slow load never replaces a value written after it started; the
///   written one is returned instead), whose notice wakes the others, and gives the
///   lease up. The others wait for that notice, or poll with a back-off from 5 ms
///   to 200 ms when there is no listener or a notice is lost, and read the value.
/// - A holder that dies or overruns its deadline loses the lease to the next instance
///   that asks after the deadline (counted as a takeover).
/// - A failed load gives the lease up and fails this instance's callers only; waiting
///   instances then take the lease and load themselves.
/// - A pass that has no value after `timeout` fails with
///   ``PostgresCacheLevelError/timedOut(operation:after:)``.
/// - With `refreshAhead`, a get that finds a value expiring within that window returns
///   it and starts a refresh in the background: the instance that takes the key's
///   lease loads and stores a new value, the others keep serving the old one until the
///   new one's notice arrives. A hot key is thus loaded about once per lifetime across
///   every instance, and no get waits for the origin as long as a refresh takes less
///   than the window. Each instance tries once per stored value.
///
/// ```swift
/// let hot = PostgresSingleFlight(level: shared, listener: listener, refreshAhead: .milliseconds(50))
/// let quote = try await hot.get("EURUSD") { key in
///   Loaded(try await feed.quote(key), expiry: .after(.seconds(1)))
/// }
/// ```
public final class PostgresSingleFlight<Key: StringConvertible & Sendable>: Sendable {
  /// The shared level values are read from and stored into.
  public let level: PostgresCacheLevel<Key>
  /// How long a lease holder may load before another instance may take over.
  public let lease: Duration
  /// How long a get waits for a value before it fails.
  public let timeout: Duration
  /// How long before a value expires a get starts refreshing it, or nil for never.
  public let refreshAhead: Duration?

  /// This instance's id as a lease owner.
  private let owner = UUID()
  private let passes = Locked<[Data: Promise<Found>]>([:])
  private let counters = Locked(SingleFlightStatistics())
  private let refreshes = Locked(Refreshes())
  private let wakeups = Wakeups()
  private let subscription: ListenerSubscription?
  private let clock: any CacheClock
  /// ``refreshAhead`` in seconds.
  private let refreshWindow: Double?
  /// How long before a get a pass it joins may have started reading: the
  /// listener's staleness bound (1 s without a listener).
  private let joinBound: Duration

  /// Loads through `level` once per key across instances. `listener`, when given,
  /// wakes waiting gets as soon as another instance stores the value (without it they
  /// poll). A lease lasts `lease` (10 s by default); a get fails after `timeout`
  /// (30 s by default). With `refreshAhead`, values are refreshed that long before
  /// they expire; give it a little more than a load (with its lease and store) takes,
  /// and much less than the values' lifetime.
  public init(
    level: PostgresCacheLevel<Key>, listener: PostgresInvalidationListener? = nil,
    lease: Duration = .seconds(10), timeout: Duration = .seconds(30),
    refreshAhead: Duration? = nil
  ) {
    self.level = level
    self.lease = lease
    self.timeout = timeout
    self.refreshAhead = refreshAhead
    clock = level.options.clock
    refreshWindow = refreshAhead?.inSeconds
    joinBound = listener?.stalenessBound ?? .seconds(1)
    let wakeups = self.wakeups
    let namespace = level.name
    subscription = listener?.subscribe { event in
      guard case .notice(let notice) = event, notice.namespace == namespace else { return }
      if case .key(let key) = notice.scope { wakeups.wake(key) } else { wakeups.wakeAll() }
    }
  }

  deinit { subscription?.cancel() }

  /// A snapshot of the counts.
  public var statistics: SingleFlightStatistics { counters.withLock { $0 } }

  /// The value stored under `key` or, when there is none, the one `loader` produces,
  /// loaded by one instance and stored (until its expiry) for all.
  public func get(
    _ key: Key, orLoad loader: @escaping @Sendable (Key) async throws -> Loaded<Data>
  ) async throws -> Data {
    let found = try await entry(key, orLoad: loader)
    refreshIfDue(key, found, loader)
    return found.value
  }

  /// `get(_:orLoad:)` with values stored under the level's default expiry.
  public func get(
    _ key: Key, orLoad loader: @escaping @Sendable (Key) async throws -> Data
  ) async throws -> Data {
    try await get(key) { key in Loaded(try await loader(key)) }
  }

  /// An entry a pass found, and when the pass started reading: the entry is at least
  /// as new as every write acknowledged before then.
  struct Found: Sendable {
    var entry: CacheEntry<Data>
    var readStart: ContinuousClock.Instant
  }

  /// The entry stored under `key`, or the one stored for it by one load across
  /// instances; no refresh.
  func entry(
    _ key: Key, orLoad loader: @escaping @Sendable (Key) async throws -> Loaded<Data>
  ) async throws -> CacheEntry<Data> {
    try await found(key, orLoad: loader).entry
  }

  /// ``entry(_:orLoad:)`` with when the pass that found it started reading. A get
  /// joins the pass in flight for its key, unless that pass started reading more than
  /// the listener's staleness bound before the get: it may have missed a write
  /// acknowledged since, so a pass started after the get answers instead.
  func found(
    _ key: Key, orLoad loader: @escaping @Sendable (Key) async throws -> Loaded<Data>
  ) async throws -> Found {
    let keyData = try level.encode(key)
    let start = ContinuousClock.now
    let found = try await pass(key, keyData, loader)
    guard found.readStart < start - joinBound else { return found }
    return try await pass(key, keyData, loader)
  }

  /// The answer of the pass in flight for `key`, or of a new one.
  private func pass(
    _ key: Key, _ keyData: Data, _ loader: @escaping @Sendable (Key) async throws -> Loaded<Data>
  ) async throws -> Found {
    let (pass, joined) = passes.withLock { passes -> (Promise<Found>, Bool) in
      if let running = passes[keyData] { return (running, true) }
      let promise = Promise<Found>()
      passes[keyData] = promise
      return (promise, false)
    }
    if joined {
      counters.withLock { $0.joinedLocally += 1 }
    } else {
      Task {
        let result: FutureResult<Found>
        let readStart = ContinuousClock.now
        do {
          result = .success(Found(entry: try await run(key, keyData, loader), readStart: readStart))
        } catch {
          result = .error(error)
        }
        _ = passes.withLock { $0.removeValue(forKey: keyData) }
        pass.complete(result)
      }
    }
    // A future of this caller's own: cancelling it leaves the pass alone.
    let mine = Promise<Found>()
    pass.future.onCompletion { mine.complete($0) }
    return try await mine.future.value
  }

  /// Starts refreshing `key` in the background when `found` (its entry here or in an
  /// upper level) expires within ``refreshAhead`` and this instance has not tried for
  /// that value yet; `stored` is called with the new entry once this instance stored it.
  func refreshIfDue(
    _ key: Key, _ found: CacheEntry<Data>,
    _ loader: @escaping @Sendable (Key) async throws -> Loaded<Data>,
    stored: (@Sendable (CacheEntry<Data>) -> Void)? = nil
  ) {
    guard let expiresAt = found.expiresAt, isDue(expiresAt),
      let keyData = try? level.encode(key),
      refreshes.withLock({ $0.claim(keyData, expiringAt: expiresAt, now: clock.now()) })
    else { return }
    Task {
      do {
        if let entry = try await refresh(key, keyData, loader) { stored?(entry) }
      } catch {
        counters.withLock { $0.failedLoads += 1 }
        CarlosLogger.log(
          "Could not refresh a value ahead of its expiry: \(error)", .warning,
          metadata: ["level": "\(level.name)", "key": CarlosLogger.key(key)])
      }
    }
  }

  /// Whether a value expiring at `expiresAt` is due for a refresh now.
  @usableFromInline
  func isDue(_ expiresAt: Date?) -> Bool {
    guard let refreshWindow, let expiresAt else { return false }
    return expiresAt.timeIntervalSince(clock.now()) < refreshWindow
  }

  /// Loads and stores `key` again if this instance gets its lease and the stored value
  /// is still due (another instance may have refreshed it already); the new entry, or
  /// nil when there was nothing to do. The new value replaces the stored one only if
  /// no write replaced or removed it during the load (a write always wins).
  private func refresh(
    _ key: Key, _ keyData: Data, _ loader: @Sendable (Key) async throws -> Loaded<Data>
  ) async throws -> CacheEntry<Data>? {
    guard try await level.takeLease(keyData, owner: owner, lease: lease).value != nil else {
      return nil
    }
    do {
      let current = try await level.peek(keyData).value
      guard current == nil || isDue(current?.expiresAt) else {
        try? await level.releaseLease(keyData, owner: owner).value
        return nil
      }
      let loaded = try await loader(key)
      let entry: CacheEntry<Data>?
      if let current {
        let (expiry, now) = (expiry(of: loaded), clock.now())
        let stored = try await level.replace(
          loaded.value, forKey: key, expiry: expiry, storedAt: current.storedAt
        ).value
        entry = stored ? CacheEntry(loaded.value, storedAt: now, expiry: expiry) : nil
      } else {
        entry = try await insert(key, loaded)
      }
      try? await level.releaseLease(keyData, owner: owner).value
      counters.withLock { entry == nil ? ($0.supersededRefreshes += 1) : ($0.refreshes += 1) }
      return entry
    } catch {
      try? await level.releaseLease(keyData, owner: owner).value
      throw error
    }
  }

  /// One pass for `key`: the stored value, or a lease and a load, or a wait for
  /// another instance's load.
  private func run(
    _ key: Key, _ keyData: Data, _ loader: @Sendable (Key) async throws -> Loaded<Data>
  ) async throws -> CacheEntry<Data> {
    let start = ContinuousClock.now
    var backOff = Duration.milliseconds(5)
    var waited = false
    while true {
      switch try await level.lookUpOrTakeLease(keyData, owner: owner, lease: lease).value {
      case .entry(let found):
        counters.withLock { waited ? ($0.followedLoads += 1) : ($0.hits += 1) }
        return found
      case .leased(let takenOver):
        if takenOver { counters.withLock { $0.takeovers += 1 } }
        return try await lead(key, keyData, loader)
      case .held:
        break
      }
      guard start.duration(to: .now) < timeout else {
        throw PostgresCacheLevelError.timedOut(operation: "shared load", after: timeout)
      }
      waited = true
      await wakeups.sleep(until: keyData, atMost: backOff)
      backOff = min(backOff * 2, .milliseconds(200))
    }
  }

  /// Loads `key` as the holder of its lease, stores the value unless a write stored
  /// one meanwhile (a load never replaces a write), gives the lease up.
  private func lead(
    _ key: Key, _ keyData: Data, _ loader: @Sendable (Key) async throws -> Loaded<Data>
  ) async throws -> CacheEntry<Data> {
    do {
      // Another instance may have stored the value just before the lease was free.
      if let found = try await level.peek(keyData).value {
        try? await level.releaseLease(keyData, owner: owner).value
        counters.withLock { $0.followedLoads += 1 }
        return found
      }
      let loaded = try await loader(key)
      // A write (a set through another instance) that came first wins; if it is gone
      // again (removed, or expired) by the time it is read, the load is stored after all.
      var entry: CacheEntry<Data>?
      for _ in 0..<3 where entry == nil {
        if let stored = try await insert(key, loaded) {
          entry = stored
        } else {
          entry = try await level.peek(keyData).value
        }
      }
      try? await level.releaseLease(keyData, owner: owner).value
      counters.withLock { $0.leaderLoads += 1 }
      return entry ?? CacheEntry(loaded.value, storedAt: clock.now(), expiry: expiry(of: loaded))
    } catch {
      try? await level.releaseLease(keyData, owner: owner).value
      counters.withLock { $0.failedLoads += 1 }
      throw error
    }
  }

  /// Stores `loaded` under `key` unless the key holds a value; its entry as stored,
  /// or nil when the key held one.
  private func insert(_ key: Key, _ loaded: Loaded<Data>) async throws -> CacheEntry<Data>? {
    let (expiry, now) = (expiry(of: loaded), clock.now())
    guard try await level.insertIfAbsent(loaded.value, forKey: key, expiry: expiry).value else {
      return nil
    }
    return CacheEntry(loaded.value, storedAt: now, expiry: expiry)
  }

  /// The expiry `loaded` is stored with: its own, or the level's default for `.never`.
  private func expiry(of loaded: Loaded<Data>) -> Expiry {
    loaded.expiry == .never ? level.options.defaultExpiry : loaded.expiry
  }
}

extension CacheEntry {
  /// The entry of `value` stored at `storedAt` until `expiry`.
  fileprivate init(_ value: Value, storedAt: Date, expiry: Expiry) {
    self.init(value: value, storedAt: storedAt, expiresAt: expiry.date(storedAt: storedAt))
  }
}

/// The values each key was last refreshed for by this instance: one try per value.
private struct Refreshes {
  private var expiries: [Data: Date] = [:]
  private var pruneAt = 1024

  /// Whether this instance should try refreshing the value of `key` that expires at
  /// `expiresAt` (it has not yet); remembers that it did.
  mutating func claim(_ key: Data, expiringAt expiresAt: Date, now: Date) -> Bool {
    // Copies of one value in upper levels may round its expiry differently.
    if let tried = expiries[key], abs(tried.timeIntervalSince(expiresAt)) < 0.001 { return false }
    expiries[key] = expiresAt
    if expiries.count >= pruneAt {
      expiries = expiries.filter { $0.value > now }
      pruneAt = max(1024, expiries.count * 2)
    }
    return true
  }
}
#endif
