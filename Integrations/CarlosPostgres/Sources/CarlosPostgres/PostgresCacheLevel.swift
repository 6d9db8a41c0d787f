#if Postgres
import Carlos
import Foundation
import PostgresNIO
import Synchronization

/// A cache level whose values live in PostgreSQL, shared by every process that
/// uses the same server and namespace.
///
/// ```swift
/// let client = PostgresClient(configuration: try DatabaseURL.configuration(url))
/// Task { await client.run() }
/// let shared = try PostgresCacheLevel<String>(
///   client: client, options: PostgresCacheOptions(namespace: "responses", capacity: 64 << 20))
/// shared.set(body, forKey: "/index.html", expiry: .after(.seconds(300)))
/// let body = try await shared.get("/index.html").value
/// ```
///
/// - Storage: one row per key in the `carlos_cache` table (``PostgresCacheOptions/Durability``:
///   `UNLOGGED` by default, or the logged `carlos_cache_logged`), created with its
///   indexes on first use if missing. Rows are scoped by the namespace: `clear()`
///   deletes only this namespace's rows.
/// - Statements: every statement is a named prepared statement with constant SQL;
///   keys, values, namespace and times are bound parameters, never spliced into SQL.
/// - Keys: the UTF-8 bytes of the key's string in Unicode NFC (as the disk level
///   stores them), stored as `bytea`, so quotes, backslashes, SQL keywords, NUL and
///   any other character are stored and read back exactly; or, with
///   ``PostgresCacheOptions/keyHashing``, their HMAC-SHA256 with a secret, so no key
///   is in the table or in a notice in clear. Keys are indexed by
///   their SHA-256 digest, and the full key is compared on every read, so keys of
///   any length up to ``PostgresCacheOptions/maximumKeySize`` work.
/// - Values: `Data`, up to ``PostgresCacheOptions/maximumValueSize``; a larger one
///   fails with ``PostgresCacheLevelError/valueTooLarge(size:limit:)``, stores
///   nothing and removes any older value of the key (so no process keeps reading
///   a value older than the one that was asked to be written). A set is one
///   `INSERT ... ON CONFLICT DO UPDATE`: two processes setting one key at once
///   leave one of the two values whole.
/// - Expiry: per entry (``set(_:forKey:expiry:)``) or the options' `defaultExpiry`,
///   in microseconds of the level's clock; an expired row is a miss, and is deleted
///   by ``removeExpired()`` in batches of `batchSize` rows, or by eviction.
/// - Capacity: when the options give one, the sizes (key + value bytes) of the
///   namespace's rows are kept under it by batched eviction: after sets have
///   written an eighth of the capacity, the level measures the namespace, deletes
///   expired rows, then the oldest written rows (by `stored_at`; a read does not
///   refresh a row, which keeps reads write-free) in batches until it is within
///   capacity. So the namespace can exceed its capacity by up to an eighth (plus
///   what other processes write at the same time) until the next enforcement;
///   ``enforceCapacity()`` runs one at once.
/// - Failures: every operation fails within ``PostgresCacheOptions/operationTimeout``
///   with ``PostgresCacheLevelError/timedOut(operation:after:)`` when the server is
///   down or unreachable, or ``PostgresCacheLevelError/queryFailed(operation:reason:)``
///   when the statement fails; in `memory >>> postgres >>> fetcher` a failed get
///   falls through to the levels below. Once a failure shows the server unreachable
///   (``isAvailable`` false), operations fail at once with
///   ``PostgresCacheLevelError/unavailable(operation:)`` until a probe, every 250 ms,
///   reaches it again. The level recovers when the server is back (the table is
///   created again if it was lost): within about a second, whatever the outage's
///   length, with a client of its own (``init(configuration:options:)``), which the
///   probe replaces by a fresh one; with a client it was given, once that client's
///   pool reconnects, which after a long outage can take seconds more (postgres-nio
///   waits up to a minute between attempts of a pool that kept failing).
/// - Invalidation: with ``PostgresCacheOptions/publishesInvalidations`` (the default)
///   each set, remove and clear sends an ``InvalidationNotice`` in the same
///   transaction as its write, which ``CoherentCache``s of other processes use to
///   drop the key from their upper levels.
/// - Statistics: every get is a load, counted as a hit or a miss with its duration;
///   eviction counts rows and bytes evicted by this level.
///
/// A level made with ``init(client:options:)`` uses the caller's `PostgresClient`,
/// whose `run()` the caller keeps going; one made with
/// ``init(configuration:options:)`` runs (and renews) a client of its own.
public final class PostgresCacheLevel<Key: StringConvertible & Sendable>: TimedCacheLevel,
  InsertingCacheLevel, CacheStatisticsSource
{
  public typealias KeyType = Key
  public typealias OutputType = Data

  /// The client whose connection pool the level uses now: the one it was given, or
  /// the latest one it made from its configuration (see
  /// ``init(configuration:options:)``).
  public var client: PostgresClient {
    switch source {
    case .given(let client): client
    case .owned(let owned): owned.current
    }
  }
  /// The level's options.
  public let options: PostgresCacheOptions
  /// Identifies this level in the notices it sends, so its own are told apart.
  public let instanceID = UUID()

  private let queries: any CacheQueries
  /// The payload of this level's namespace-wide notice, and the start of its key notices.
  private let namespaceNotice: String
  private let keyNoticeHead: String
  private let refreshNoticeHead: String
  private let setup = Locked<SetupState>(.idle)
  private let counters = Locked<Counters>(Counters())
  /// The latest enforcement; each new one waits for it, so they never overlap.
  private let enforcement = Locked<Task<Void, any Error>?>(nil)
  private let writes = Locked<PendingWrites>(PendingWrites())
  private let availability: ServerAvailability
  private let source: Source

  /// Where the level's client comes from.
  private enum Source: Sendable {
    /// The caller's client, which the caller runs.
    case given(PostgresClient)
    /// Clients the level makes, runs and renews itself.
    case owned(RenewableClient)
  }

  private struct PendingWrites {
    var count = 0
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private enum SetupState {
    case idle
    case running(Task<Void, any Error>)
    case ready
  }

  private struct Counters {
    var statistics = CacheStatistics()
    var bytesSinceEnforcement = 0
    var enforcing = false
  }

  /// Creates a level over `client` with `options`; the caller runs the client.
  ///
  /// After an outage the level works again once the client's pool reconnects, which
  /// postgres-nio delays more the longer the outage was (up to a minute between
  /// attempts); a level made with ``init(configuration:options:)`` works again within
  /// about a second of the server's return, whatever the outage's length.
  ///
  /// - Throws: ``PostgresCacheLevelError/invalidNamespace(_:)`` when the namespace
  ///   is empty, longer than 200 UTF-8 bytes or contains NUL.
  public convenience init(client: PostgresClient, options: PostgresCacheOptions) throws {
    try self.init(source: .given(client), options: options)
  }

  /// Creates a level with `options` over a client of `configuration` that it runs
  /// itself, and replaces by a fresh one when the server answers again after an
  /// outage, so it works again within about a second of the server's return,
  /// whatever the outage's length.
  ///
  /// The level closes its client when its `run()` returns (after a graceful shutdown
  /// of its service group, once its writes in flight completed) or when it is released.
  ///
  /// - Throws: ``PostgresCacheLevelError/invalidNamespace(_:)`` when the namespace
  ///   is empty, longer than 200 UTF-8 bytes or contains NUL.
  public convenience init(
    configuration: PostgresClient.Configuration, options: PostgresCacheOptions
  ) throws {
    try self.init(source: .owned(RenewableClient(configuration: configuration)), options: options)
  }

  private init(source: Source, options: PostgresCacheOptions) throws {
    let namespace = options.namespace
    guard !namespace.isEmpty, namespace.utf8.count <= 200, !namespace.utf8.contains(0) else {
      throw PostgresCacheLevelError.invalidNamespace(namespace)
    }
    self.source = source
    self.options = options
    let timeout = options.operationTimeout
    switch source {
    case .given(let client):
      availability = ServerAvailability(name: namespace, probeTimeout: timeout) {
        await ServerAvailability.probe(client, timeout: timeout)
      }
    case .owned(let owned):
      // Operations started on the replaced client end within the operation timeout.
      availability = ServerAvailability(name: namespace, probeTimeout: timeout) {
        await owned.renew(timeout: timeout, grace: timeout)
      }
    }
    let sender = instanceID
    namespaceNotice =
      InvalidationNotice(sender: sender, namespace: namespace, scope: .namespace)
      .payload
    keyNoticeHead =
      InvalidationNotice(sender: sender, namespace: namespace, scope: .key(Data()))
      .payload
    refreshNoticeHead =
      InvalidationNotice(sender: sender, namespace: namespace, scope: .key(Data()), isRefresh: true)
      .payload
    switch options.durability {
    case .unlogged: queries = TableQueries<UnloggedCacheTable>()
    case .logged: queries = TableQueries<LoggedCacheTable>()
    }
  }

  deinit {
    close()
  }

  /// Closes the client the level made (see ``init(configuration:options:)``); does
  /// nothing to a client it was given.
  func close() {
    if case .owned(let owned) = source { owned.close() }
  }

  /// The level's namespace, the name its statistics are reported under.
  public var name: String { options.namespace }

  /// Whether the server is thought reachable: false from a failure that showed it
  /// unreachable (a lost or refused connection, or a timeout with no operation of the
  /// level succeeding for as long) until a probe, repeated at most every 250 ms,
  /// reaches it again. Meanwhile every operation fails
  /// at once with ``PostgresCacheLevelError/unavailable(operation:)``.
  public var isAvailable: Bool { !availability.isDown }

  /// A snapshot of the level's hits, misses, loads and evictions.
  public var statistics: CacheStatistics {
    counters.withLock { $0.statistics }
  }

  // MARK: Reads

  /// Gets the value stored under `key`; an expired row is a miss
  /// (``FetchError/valueNotInCache``).
  public func get(_ key: Key) -> Future<Data> {
    recordingLoad(
      read(key, operation: "get") { [self] keyData, now in
        try await queries.select(client, namespace: name, key: keyData, now: now)?.value
      })
  }

  /// The value stored under `key`, with when it was stored and when it expires.
  public func entry(forKey key: Key) -> Future<CacheEntry<Data>> {
    recordingLoad(
      read(key, operation: "entry") { [self] keyData, now in
        try await queries.select(client, namespace: name, key: keyData, now: now).map(Self.entry)
      })
  }

  /// The entry of a selected row.
  private static func entry(_ row: (value: Data, storedAt: Int64, expiresAt: Int64?))
    -> CacheEntry<Data>
  {
    CacheEntry(value: row.value, storedAt: date(row.storedAt), expiresAt: row.expiresAt.map(date))
  }

  /// Runs the read `body` for `key` at the clock's current time; nil is a miss.
  private func read<T: Sendable>(
    _ key: Key, operation: String,
    _ body: @escaping @Sendable (Data, Int64) async throws -> T?
  ) -> Future<T> {
    let keyData: Data
    do { keyData = try encode(key) } catch { return Future(error) }
    let now = Self.microseconds(options.clock.now())
    return run(operation) {
      guard let found = try await body(keyData, now) else { throw FetchError.valueNotInCache }
      return found
    }
  }

  /// Counts `request` as a load: a hit or a miss, with its duration.
  private func recordingLoad<T: Sendable>(_ request: Future<T>) -> Future<T> {
    let start = ContinuousClock.now
    request.onCompletion { [self] result in
      let elapsed = start.duration(to: .now)
      counters.withLock { counters in
        if case .success = result {
          counters.statistics.hitCount += 1
          counters.statistics.loadSuccessCount += 1
        } else {
          counters.statistics.missCount += 1
          counters.statistics.loadFailureCount += 1
        }
        counters.statistics.totalLoadTime += elapsed
      }
    }
    return request
  }

  // MARK: Writes

  /// Stores `value` under `key` with the options' default expiry.
  @discardableResult
  public func set(_ value: Data, forKey key: Key) -> Future<Void> {
    set(value, forKey: key, expiry: options.defaultExpiry)
  }

  /// Stores `value` under `key` until `expiry`; an expiry already past stores
  /// nothing and removes any older value.
  @discardableResult
  public func set(_ value: Data, forKey key: Key, expiry: Expiry) -> Future<Void> {
    let keyData: Data
    do { keyData = try encode(key) } catch { return Future(error) }
    guard value.count <= options.maximumValueSize else {
      let tooLarge = PostgresCacheLevelError.valueTooLarge(
        size: value.count, limit: options.maximumValueSize)
      return delete(keyData).flatMap { _ in Future<Void>(tooLarge) }
    }
    guard let row = row(value, keyData, expiry) else { return delete(keyData) }
    let notice = notice(.key(keyData))
    return write("set") { [self] in
      try await queries.upsert(client, row, notice: notice)
      noteWritten(bytes: keyData.count + value.count)
    }
  }

  /// Stores `value` under `key` with the options' default expiry unless the key holds
  /// an unexpired value, atomically across every process of the namespace (one
  /// `INSERT ... ON CONFLICT` statement); succeeds with whether it stored.
  @discardableResult
  public func insertIfAbsent(_ value: Data, forKey key: Key) -> Future<Bool> {
    insertIfAbsent(value, forKey: key, expiry: options.defaultExpiry)
  }

  /// Stores `value` under `key` until `expiry` unless the key holds an unexpired value,
  /// atomically across every process of the namespace; succeeds with whether it
  /// stored. An expiry already past stores nothing (false); a value over
  /// ``PostgresCacheOptions/maximumValueSize`` fails with
  /// ``PostgresCacheLevelError/valueTooLarge(size:limit:)`` and changes nothing.
  @discardableResult
  public func insertIfAbsent(_ value: Data, forKey key: Key, expiry: Expiry) -> Future<Bool> {
    conditionalWrite("insertIfAbsent", value, forKey: key, expiry: expiry) {
      [self] row, notice in
      try await queries.insertIfAbsent(client, row, notice: notice)
    }
  }

  /// Stores `value` under `key` until `expiry` only if the key's row is still the one
  /// stored at `storedAt` (a refresh replacing the value it read: a write since, or a
  /// removal, wins); succeeds with whether it stored, noticed as a refresh.
  func replace(_ value: Data, forKey key: Key, expiry: Expiry, storedAt: Date) -> Future<Bool> {
    let replaced = Self.microseconds(storedAt)
    return conditionalWrite("replace", value, forKey: key, expiry: expiry, isRefresh: true) {
      [self] row, notice in
      try await queries.replace(client, row, storedAt: replaced, notice: notice)
    }
  }

  /// Runs `statement`, which stores the row of `value` under `key` until `expiry` when
  /// its condition holds, with the key's notice; succeeds with whether it stored. An
  /// expiry already past stores nothing (false); a value over the maximum size fails.
  private func conditionalWrite(
    _ operation: String, _ value: Data, forKey key: Key, expiry: Expiry, isRefresh: Bool = false,
    _ statement: @escaping @Sendable (EntryRow, String?) async throws -> Bool
  ) -> Future<Bool> {
    let keyData: Data
    do { keyData = try encode(key) } catch { return Future(error) }
    guard value.count <= options.maximumValueSize else {
      return Future(
        PostgresCacheLevelError.valueTooLarge(size: value.count, limit: options.maximumValueSize))
    }
    guard let row = row(value, keyData, expiry) else { return Future(false) }
    let notice = notice(.key(keyData), isRefresh: isRefresh)
    return write(operation) { [self] in
      let stored = try await statement(row, notice)
      if stored { noteWritten(bytes: keyData.count + value.count) }
      return stored
    }
  }

  /// The row storing `value` under `keyData` from now until `expiry`; nil when
  /// `expiry` is already past.
  private func row(_ value: Data, _ keyData: Data, _ expiry: Expiry) -> EntryRow? {
    let now = Self.microseconds(options.clock.now())
    let expiresAt: Int64?
    switch expiry {
    case .never: expiresAt = nil
    case .after(let duration): expiresAt = now.addingClamped(Self.microseconds(duration))
    case .at(let date): expiresAt = Self.microseconds(date)
    }
    if let expiresAt, expiresAt <= now { return nil }
    return EntryRow(
      namespace: name, key: keyData, value: value, storedAt: now, expiresAt: expiresAt)
  }

  /// Removes the value stored under `key`, if any.
  @discardableResult
  public func remove(_ key: Key) -> Future<Void> {
    do { return delete(try encode(key)) } catch { return Future(error) }
  }

  private func delete(_ keyData: Data) -> Future<Void> {
    let notice = notice(.key(keyData))
    return write("remove") { [self] in
      try await queries.delete(client, namespace: name, key: keyData, notice: notice)
    }
  }

  /// Deletes every row of the level's namespace (and no other); a failure is logged.
  public func clear() {
    clearAll().onFailure { [name] error in
      CarlosLogger.log(
        "Could not clear PostgreSQL namespace: \(error)", .error, metadata: ["level": name])
    }
  }

  /// Deletes every row of the level's namespace; the future tells when it is done.
  @discardableResult
  public func clearAll() -> Future<Void> {
    let notice = notice(.namespace)
    return write("clear") { [self] in
      try await queries.clear(client, namespace: name, notice: notice)
    }
  }

  /// Deletes the namespace's expired rows, `batchSize` rows per statement.
  @discardableResult
  public func removeExpired() -> Future<Void> {
    Future { [self] in _ = try await deleteExpiredRows() }
  }

  /// Does nothing: the level holds nothing in this process's memory.
  public func onMemoryWarning() {}

  // MARK: Capacity

  /// Brings the namespace within the options' capacity now: deletes expired rows,
  /// then the oldest written rows in batches. Succeeds at once without a capacity.
  @discardableResult
  public func enforceCapacity() -> Future<Void> {
    guard options.capacity != nil else { return Future() }
    let task = enforcement.withLock { latest in
      let previous = latest
      let task = Task { [self] in
        _ = await previous?.result
        try await enforceOnce()
      }
      latest = task
      return task
    }
    return Future { try await task.value }
  }

  private func enforceOnce() async throws {
    guard let capacity = options.capacity else { return }
    do {
      var usage = try await withDeadline("usage", timeout: options.operationTimeout) {
        [self] in try await queries.usage(client, namespace: name)
      }
      guard usage.bytes > Int64(capacity) else { return }
      let expired = try await deleteExpiredRows()
      usage.bytes -= expired.bytes
      usage.rows -= expired.rows
      while usage.bytes > Int64(capacity), usage.rows > 0 {
        let average = max(1, usage.bytes / usage.rows)
        let needed = (usage.bytes - Int64(capacity) + average - 1) / average
        let limit = Int(min(Int64(options.batchSize), max(1, needed)))
        let evicted = try await withDeadline("evict", timeout: options.operationTimeout) {
          [self] in try await queries.evictOldest(client, namespace: name, limit: limit)
        }
        guard evicted.rows > 0 else { break }
        usage.bytes -= evicted.bytes
        usage.rows -= evicted.rows
        counters.withLock {
          $0.statistics.evictionCount += Int(evicted.rows)
          $0.statistics.evictedCost += Int(evicted.bytes)
        }
      }
    }
  }

  /// Counts bytes written and starts an enforcement once an eighth of the capacity was written.
  private func noteWritten(bytes: Int) {
    guard let capacity = options.capacity else { return }
    let start = counters.withLock { counters -> Bool in
      counters.bytesSinceEnforcement += bytes
      guard !counters.enforcing, counters.bytesSinceEnforcement >= max(1, capacity / 8) else {
        return false
      }
      counters.enforcing = true
      counters.bytesSinceEnforcement = 0
      return true
    }
    guard start else { return }
    enforceCapacity().onCompletion { [self] result in
      counters.withLock { $0.enforcing = false }
      if case .error(let error) = result {
        CarlosLogger.log(
          "Could not enforce the PostgreSQL cache capacity: \(error)", .warning,
          metadata: ["level": name])
      }
    }
  }

  private func deleteExpiredRows() async throws -> (rows: Int64, bytes: Int64) {
    let now = Self.microseconds(options.clock.now())
    var total: (rows: Int64, bytes: Int64) = (0, 0)
    while true {
      let batch = try await withDeadline("removeExpired", timeout: options.operationTimeout) {
        [self] in
        try await ensureTable()
        return try await queries.deleteExpired(
          client, namespace: name, now: now, limit: options.batchSize)
      }
      total.rows += batch.rows
      total.bytes += batch.bytes
      if batch.rows < Int64(options.batchSize) { return total }
    }
  }

  // MARK: Plumbing

  /// Runs `body` after making sure the table exists, within the operation timeout;
  /// fails at once while the server is known to be unreachable.
  private func run<T: Sendable>(
    _ operation: String, _ body: @escaping @Sendable () async throws -> T
  )
    -> Future<T>
  {
    guard !availability.isDown else {
      return Future(PostgresCacheLevelError.unavailable(operation: operation))
    }
    let request = deadlineFuture(operation, timeout: options.operationTimeout) {
      [self] in
      do {
        try await ensureTable()
        let result = try await body()
        availability.succeeded()
        return result
      } catch {
        availability.failed(error)
        throw error
      }
    }
    request.onFailure { [availability] error in
      if case .timedOut? = error as? PostgresCacheLevelError { availability.failed(error) }
    }
    return request
  }

  /// ``run(_:_:)`` for a write, counted in flight until it completes.
  private func write<T: Sendable>(
    _ operation: String, _ body: @escaping @Sendable () async throws -> T
  ) -> Future<T> {
    writes.withLock { $0.count += 1 }
    let request = run(operation, body)
    request.onCompletion { [self] _ in
      let waiters = writes.withLock { pending -> [CheckedContinuation<Void, Never>] in
        pending.count -= 1
        guard pending.count == 0 else { return [] }
        defer { pending.waiters = [] }
        return pending.waiters
      }
      for waiter in waiters { waiter.resume() }
    }
    return request
  }

  /// Returns once no set, insert, remove or clear of this level is in flight (at once
  /// when none is).
  public func writesFinished() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let idle = writes.withLock { pending -> Bool in
        guard pending.count > 0 else { return true }
        pending.waiters.append(continuation)
        return false
      }
      if idle { continuation.resume() }
    }
  }

  /// Creates the table once per level (again after a failure).
  private func ensureTable() async throws {
    guard options.createTable else { return }
    let task: Task<Void, any Error>? = setup.withLock { state in
      switch state {
      case .ready: return nil
      case .running(let task): return task
      case .idle:
        let task = Task { [client, queries] in try await queries.createTable(client) }
        state = .running(task)
        return task
      }
    }
    guard let task else { return }
    do {
      try await task.value
      setup.withLock { $0 = .ready }
    } catch {
      setup.withLock { state in
        if case .running = state { state = .idle }
      }
      throw error
    }
  }

  /// The notice payload for a change of `scope`, or nil when the level sends none.
  private func notice(_ scope: InvalidationNotice.Scope, isRefresh: Bool = false) -> String? {
    guard options.publishesInvalidations else { return nil }
    // The same text as `InvalidationNotice.payload`, built from the parts made once.
    guard case .key(let key) = scope else { return namespaceNotice }
    let payload = (isRefresh ? refreshNoticeHead : keyNoticeHead) + key.base64EncodedString()
    return payload.utf8.count <= InvalidationNotice.maximumPayload ? payload : namespaceNotice
  }

  // MARK: Leases (see PostgresSingleFlight)

  /// The unexpired entry stored under the stored key `keyData`, or nil; not counted
  /// in the statistics.
  func peek(_ keyData: Data) -> Future<CacheEntry<Data>?> {
    let now = Self.microseconds(options.clock.now())
    return run("get") { [self] in
      try await queries.select(client, namespace: name, key: keyData, now: now).map(Self.entry)
    }
  }

  /// The unexpired entry stored under the stored key `keyData`, or else the key's
  /// lease for `owner` for `lease` (see ``takeLease(_:owner:lease:)``), in one round
  /// trip: `.entry`, `.leased(takenOver:)`, or `.held` by another instance.
  func lookUpOrTakeLease(_ keyData: Data, owner: UUID, lease: Duration) -> Future<Lookup> {
    let now = Self.microseconds(options.clock.now())
    let microseconds = Self.microseconds(lease)
    return run("get") { [self] in
      switch try await queries.selectOrTakeLease(
        client, namespace: name, key: keyData, now: now, owner: owner, lease: microseconds)
      {
      case (let value?, let storedAt?, let expiresAt, _)?:
        return .entry(Self.entry((value, storedAt, expiresAt)))
      case (_, _, _, let takenOver?)?: return .leased(takenOver: takenOver)
      default: return .held
      }
    }
  }

  /// What ``lookUpOrTakeLease(_:owner:lease:)`` found.
  enum Lookup: Sendable {
    /// The key's unexpired entry.
    case entry(CacheEntry<Data>)
    /// No value; the lease is the caller's now (`takenOver`: from a late holder).
    case leased(takenOver: Bool)
    /// No value; another instance holds the lease.
    case held
  }

  /// Takes the lease on the stored key `keyData` for `owner` for `lease`: nil when
  /// another instance holds it, else whether it was taken over from a late holder.
  func takeLease(_ keyData: Data, owner: UUID, lease: Duration) -> Future<Bool?> {
    let microseconds = Self.microseconds(lease)
    return run("lease") { [self] in
      try await queries.takeLease(
        client, namespace: name, key: keyData, owner: owner, lease: microseconds)
    }
  }

  /// Gives up `owner`'s lease on the stored key `keyData`.
  func releaseLease(_ keyData: Data, owner: UUID) -> Future<Void> {
    run("lease release") { [self] in
      try await queries.releaseLease(client, namespace: name, key: keyData, owner: owner)
    }
  }

  /// The stored form of `key`: UTF-8 of its NFC string, or the HMAC of those
  /// bytes with the options' ``PostgresCacheOptions/keyHashing``.
  func encode(_ key: Key) throws -> Data {
    let bytes = Data(CanonicalKeyBytes.bytes(of: key.toString()))
    guard bytes.count <= options.maximumKeySize else {
      throw PostgresCacheLevelError.keyTooLarge(size: bytes.count, limit: options.maximumKeySize)
    }
    return options.keyHashing?.digest(of: bytes) ?? bytes
  }

  static func microseconds(_ date: Date) -> Int64 {
    let value = (date.timeIntervalSince1970 * 1_000_000).rounded()
    guard value.isFinite else { return value > 0 ? .max : .min }
    return value >= 9.2e18 ? .max : (value <= -9.2e18 ? .min : Int64(value))
  }

  static func microseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
    if overflow { return seconds > 0 ? .max : .min }
    return whole.addingClamped(attoseconds / 1_000_000_000_000)
  }

  static func date(_ microseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(microseconds) / 1_000_000)
  }
}

extension Int64 {
  /// The sum, held at `.max` or `.min` instead of overflowing.
  func addingClamped(_ other: Int64) -> Int64 {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? (other > 0 ? .max : .min) : sum
  }
}
#endif
