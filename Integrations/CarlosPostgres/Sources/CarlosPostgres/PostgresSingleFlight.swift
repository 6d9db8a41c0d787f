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
/// - A pass reads the stored value; on a miss it takes the key's lease (a row of
///   `carlos_cache_leases`: an owner and a deadline `lease` ahead on the server's
///   clock, taken atomically). The holder reads once more (the value may have just
///   been stored), loads, stores the value (whose notice wakes the others) and gives
///   the lease up. The others wait for that notice, or poll with a back-off from 5 ms
///   to 200 ms when there is no listener or a notice is lost, and read the value.
/// - A holder that dies or overruns its deadline loses the lease to the next instance
///   that asks after the deadline (counted as a takeover).
/// - A failed load gives the lease up and fails this instance's callers only; waiting
///   instances then take the lease and load themselves.
/// - A pass that has no value after `timeout` fails with
///   ``PostgresCacheLevelError/timedOut(operation:after:)``.
public final class PostgresSingleFlight<Key: StringConvertible & Sendable>: Sendable {
  /// The shared level values are read from and stored into.
  public let level: PostgresCacheLevel<Key>
  /// How long a lease holder may load before another instance may take over.
  public let lease: Duration
  /// How long a get waits for a value before it fails.
  public let timeout: Duration

  /// This instance's id as a lease owner.
  private let owner = UUID()
  private let passes = Locked<[Data: Promise<Data>]>([:])
  private let counters = Locked(SingleFlightStatistics())
  private let wakeups = Wakeups()
  private let subscription: ListenerSubscription?

  /// Loads through `level` once per key across instances. `listener`, when given,
  /// wakes waiting gets as soon as another instance stores the value (without it they
  /// poll). A lease lasts `lease` (10 s by default); a get fails after `timeout`
  /// (30 s by default).
  public init(
    level: PostgresCacheLevel<Key>, listener: PostgresInvalidationListener? = nil,
    lease: Duration = .seconds(10), timeout: Duration = .seconds(30)
  ) {
    self.level = level
    self.lease = lease
    self.timeout = timeout
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
    let keyData = try level.encode(key)
    let (pass, joined) = passes.withLock { passes -> (Promise<Data>, Bool) in
      if let running = passes[keyData] { return (running, true) }
      let promise = Promise<Data>()
      passes[keyData] = promise
      return (promise, false)
    }
    if joined {
      counters.withLock { $0.joinedLocally += 1 }
    } else {
      Task {
        let result: FutureResult<Data>
        do {
          result = .success(try await run(key, keyData, loader))
        } catch {
          result = .error(error)
        }
        _ = passes.withLock { $0.removeValue(forKey: keyData) }
        pass.complete(result)
      }
    }
    // A future of this caller's own: cancelling it leaves the pass alone.
    let mine = Promise<Data>()
    pass.future.onCompletion { mine.complete($0) }
    return try await mine.future.value
  }

  /// `get(_:orLoad:)` with values stored under the level's default expiry.
  public func get(
    _ key: Key, orLoad loader: @escaping @Sendable (Key) async throws -> Data
  ) async throws -> Data {
    try await get(key) { key in Loaded(try await loader(key)) }
  }

  /// One pass for `key`: the stored value, or a lease and a load, or a wait for
  /// another instance's load.
  private func run(
    _ key: Key, _ keyData: Data, _ loader: @Sendable (Key) async throws -> Loaded<Data>
  ) async throws -> Data {
    let start = ContinuousClock.now
    var backOff = Duration.milliseconds(5)
    var waited = false
    while true {
      if let value = try await level.peek(keyData).value {
        counters.withLock { waited ? ($0.followedLoads += 1) : ($0.hits += 1) }
        return value
      }
      if let takenOver = try await level.takeLease(keyData, owner: owner, lease: lease).value {
        if takenOver { counters.withLock { $0.takeovers += 1 } }
        return try await lead(key, keyData, loader)
      }
      guard start.duration(to: .now) < timeout else {
        throw PostgresCacheLevelError.timedOut(operation: "shared load", after: timeout)
      }
      waited = true
      await wakeups.sleep(until: keyData, atMost: backOff)
      backOff = min(backOff * 2, .milliseconds(200))
    }
  }

  /// Loads `key` as the holder of its lease, stores the value, gives the lease up.
  private func lead(
    _ key: Key, _ keyData: Data, _ loader: @Sendable (Key) async throws -> Loaded<Data>
  ) async throws -> Data {
    do {
      // Another instance may have stored the value just before the lease was free.
      if let value = try await level.peek(keyData).value {
        try? await level.releaseLease(keyData, owner: owner).value
        counters.withLock { $0.followedLoads += 1 }
        return value
      }
      let loaded = try await loader(key)
      if case .never = loaded.expiry {
        try await level.set(loaded.value, forKey: key).value
      } else {
        try await level.set(loaded.value, forKey: key, expiry: loaded.expiry).value
      }
      try? await level.releaseLease(keyData, owner: owner).value
      counters.withLock { $0.leaderLoads += 1 }
      return loaded.value
    } catch {
      try? await level.releaseLease(keyData, owner: owner).value
      counters.withLock { $0.failedLoads += 1 }
      throw error
    }
  }
}
