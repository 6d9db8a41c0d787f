#if Postgres
import Carlos
import Foundation
import Synchronization

/// `upper >>> postgres`, kept coherent across processes: a set, remove or clear of
/// the PostgreSQL level's namespace in any other process drops the key (or
/// everything) from this process's `upper`.
///
/// **Guarantee.** Once a write (set, remove, clear, insert) through any instance is
/// acknowledged, no get through any instance that starts more than the listener's
/// ``PostgresInvalidationListener/stalenessBound`` (1 s by default) later answers
/// the value it replaced, whatever happens to notices and connections meanwhile
/// (notices late, connections lost, the listener reconnecting): `upper` is served
/// only while the listener's heartbeat shows every notice older than the bound
/// handed out (``PostgresInvalidationListener/isFresh(at:)``); otherwise gets read
/// `lower`. While this instance cannot reach PostgreSQL at all (``PostgresCacheLevel/isAvailable``
/// false), no write can be acknowledged through it (writes fail at once with
/// ``PostgresCacheLevelError/unavailable(operation:)``); ``get(_:orLoad:)`` then serves
/// values this instance loaded from the origin during the outage, once per key, kept
/// in `upper` until they expire or PostgreSQL is back; a write acknowledged through
/// another instance meanwhile is served by this one within the bound after its
/// listener listens again.
///
/// ```swift
/// let listener = PostgresInvalidationListener(client: client)
/// Task { await listener.run() }
/// let cache = CoherentCache(upper: MemoryCacheLevel<String, Data>(), lower: shared, listener: listener)
/// ```
///
/// - Within the process it behaves like `upper >>> lower`: a get asks `upper`, then
///   `lower`, and copies the value found there into `upper` until the expiry it has
///   in `lower` (so a value another process stored for a second is not kept longer
///   upstairs); set, remove and clear reach both. With a `TimedCacheLevel` upstairs
///   it is one too, and an `InsertingCacheLevel` whose `insertIfAbsent` is atomic
///   across processes (framework drivers such as `CarlosPersistDriver` need both).
///   A value from `lower` is copied up only if no write or notice for its key arrived
///   since the read that found it started (for ``get(_:through:orLoad:)``, the read
///   of the pass it joined), so a slow read never brings back a value another process
///   has replaced. A get joins a read in flight for its key only if that read started
///   at most the listener's staleness bound before the get.
/// - ``get(_:orLoad:)`` loads a value missing from both levels once per key in this
///   process at a time, and stores it into `lower` only if `lower` still has no
///   value for the key, so a slow load never replaces a value written meanwhile;
///   `coherent >>> fetcher` loads the same way (``compose(_:)``).
/// - Notices sent by `lower` itself are ignored (this cache already applied those
///   writes to `upper`). Writes made on `lower` directly, not through this cache,
///   reach other processes but not this process's `upper`.
/// - While the listener is not listening (before it first connects, and while it
///   reconnects), notices can be missed, so `upper` is **bypassed**: gets go to
///   `lower`, nothing read from `lower` is stored in `upper`, and `upper` is cleared
///   when the listener stops and again when it listens again.
/// - While `lower` is unavailable (an outage), whether or not the listener has
///   noticed, `upper` holds only the origin's loads made during the outage: it is
///   emptied when the outage begins and again when it ends.
/// - A notice for a key too long for a notification payload, or for a clear, drops
///   everything from `upper`.
/// - A notice of a refresh (``InvalidationNotice/isRefresh``: another instance's
///   ``PostgresSingleFlight`` reloaded a value before it expired) does not drop the
///   key: its copy in `upper`, still valid, is served until the new value, read from
///   `lower`, replaces it.
/// - When `lower` stores keys hashed (``PostgresCacheOptions/keyHashing``), notices
///   carry digests, not keys: the cache remembers the digest of each key it put
///   into `upper` (up to ``trackedKeyLimit`` keys; past that it empties `upper` and
///   starts again), and drops the key a notice's digest names.
public final class CoherentCache<Upper: CacheLevel>: CacheLevel
where Upper.OutputType == Data, Upper.KeyType: StringConvertible & Hashable {
  public typealias KeyType = Upper.KeyType
  public typealias OutputType = Data

  /// The level in this process's memory.
  public let upper: Upper
  /// The shared PostgreSQL level.
  public let lower: PostgresCacheLevel<KeyType>

  /// The listener whose heartbeat tells whether `upper` may be served.
  private let listener: PostgresInvalidationListener
  private let makeKey: @Sendable (String) -> KeyType?
  /// This process's loads of ``get(_:orLoad:)`` in flight, by key.
  private let loads = Locked<[KeyType: Task<Answer, any Error>]>([:])
  private let onInvalidation: (@Sendable (InvalidationNotice) -> Void)?
  private let state = Locked<State>(State())
  private let subscription = Locked<ListenerSubscription?>(nil)

  /// Whether the listener listens, whether `lower` is unreachable (`upper` then holds
  /// only the origin's loads made since), when each stripe last saw a write or
  /// notice, and (when `lower` hashes keys) the keys put into `upper` by their stored
  /// digests.
  private struct State {
    var isOpen = false
    var isOutage = false
    var bumpedAt = [ContinuousClock.Instant](repeating: .now, count: 16)
    var keysByDigest: [Data: KeyType] = [:]
  }

  /// The most keys whose digests the cache remembers when `lower` hashes keys.
  public static var trackedKeyLimit: Int { 1 << 17 }

  /// Creates the coherent composition of `upper` and `lower`, fed by `listener`;
  /// `makeKey` turns a notice's key string back into a key (nil drops everything).
  /// `onInvalidation`, when given, is called with each notice of another writer
  /// after its key (or everything) was dropped from `upper`.
  public init(
    upper: Upper, lower: PostgresCacheLevel<KeyType>, listener: PostgresInvalidationListener,
    makeKey: @escaping @Sendable (String) -> KeyType?,
    onInvalidation: (@Sendable (InvalidationNotice) -> Void)? = nil
  ) {
    self.upper = upper
    self.lower = lower
    self.listener = listener
    self.makeKey = makeKey
    self.onInvalidation = onInvalidation
    let token = listener.subscribe { [weak self] event in self?.handle(event) }
    subscription.withLock { $0 = token }
  }

  /// Whether `upper` is in use now: the listener listens and is up to date, or
  /// `lower` is unreachable (`upper` then serves the origin's loads made since).
  public var isUsingUpper: Bool { readStart() != nil }

  /// Stops following the listener; `upper` is bypassed from now on.
  public func stopListening() {
    subscription.withLock { $0?.cancel() }
    handle(.stopped)
  }

  // MARK: CacheLevel

  /// Gets from `upper`, then from `lower` (copying the value up), or only from
  /// `lower` while the listener is down.
  @inlinable
  public func get(_ key: KeyType) -> Future<Data> {
    guard let start = readStart() else { return lower.get(key) }
    let first = upper.get(key)
    if case .success? = first.result { return first }
    return get(key, below: first, since: start)
  }

  /// The rest of ``get(_:)`` after `upper`'s answer `first` was not a hit at once.
  @usableFromInline
  func get(_ key: KeyType, below first: Future<Data>, since start: ContinuousClock.Instant)
    -> Future<Data>
  {
    read(key, below: first, since: start) { $0.value }
  }

  /// `first`'s value, or else `pick` of `lower`'s entry for `key`, whose value is
  /// copied into `upper` until its expiry in `lower` (unless a write or notice for
  /// its stripe arrived since `start`).
  private func read<T: Sendable>(
    _ key: KeyType, below first: Future<T>, since start: ContinuousClock.Instant,
    _ pick: @escaping @Sendable (CacheEntry<Data>) -> T
  ) -> Future<T> {
    let promise = Promise<T>()
    promise.onCancel { first.cancel() }
    first.onCompletion { [self] result in
      switch result {
      case .success(let value): promise.succeed(value)
      case .cancelled: promise.cancel()
      case .error:
        let second = lower.entry(forKey: key)
        promise.onCancel { second.cancel() }
        second.onCompletion { [self] result in
          switch result {
          case .success(let entry):
            copyUp(entry.value, key: key, expiresAt: entry.expiresAt, since: start)
            promise.succeed(pick(entry))
          case .error(let error): promise.fail(error)
          case .cancelled: promise.cancel()
          }
        }
      }
    }
    return promise.future
  }

  /// Stores `value` in both levels (only in `lower` while the listener is down).
  @discardableResult
  public func set(_ value: Data, forKey key: KeyType) -> Future<Void> {
    write(key) {
      $0.set(value, forKey: key)
    } lower: {
      $0.set(value, forKey: key)
    }
  }

  /// Stores `value` with `expiry` in both levels.
  @discardableResult
  public func set(_ value: Data, forKey key: KeyType, expiry: Expiry) -> Future<Void> {
    write(key) {
      $0.set(value, forKey: key, expiry: expiry)
    } lower: {
      $0.set(value, forKey: key, expiry: expiry)
    }
  }

  /// Removes `key` from both levels.
  @discardableResult
  public func remove(_ key: KeyType) -> Future<Void> {
    write(key) {
      $0.remove(key)
    } lower: {
      $0.remove(key)
    }
  }

  /// Removes expired values from both levels.
  @discardableResult
  public func removeExpired() -> Future<Void> {
    upper.removeExpired().zip(lower.removeExpired()).map { _ in () }
  }

  /// Clears both levels (`lower`: its namespace only).
  public func clear() {
    state.withLock { state in
      bumpAll(&state)
      upper.clear()
      lower.clear()
    }
  }

  /// Forwards the warning to `upper`.
  public func onMemoryWarning() {
    upper.onMemoryWarning()
  }

  // MARK: Coherence

  private func write(
    _ key: KeyType, upper writeUpper: (Upper) -> Future<Void>,
    lower writeLower: (PostgresCacheLevel<KeyType>) -> Future<Void>
  ) -> Future<Void> {
    let (written, isOutage) = state.withLock { state in
      followAvailability(&state)
      if state.isOutage { return (writeLower(lower), true) }
      state.bumpedAt[stripe(key)] = .now
      let lowerWrite = writeLower(lower)
      // While the listener is down (and no outage), `upper` is empty and bypassed.
      guard state.isOpen else { return (lowerWrite, false) }
      track(key, &state)
      return (writeUpper(upper).zip(lowerWrite).map { _ in () }, false)
    }
    guard isOutage else { return written }
    // Fails at once, unless PostgreSQL answers again meanwhile: a failed write leaves
    // the outage's loads alone; an acknowledged one drops the key's load (and any in
    // flight) before it is acknowledged.
    return written.map { [self] in state.withLock { drop(key, &$0) } }
  }

  /// Now, when `upper` may be served (the listener listens and is up to date, or
  /// `lower` is unavailable: `upper` then holds only loads made since), or nil when
  /// `upper` is bypassed.
  @usableFromInline
  func readStart() -> ContinuousClock.Instant? {
    let now = ContinuousClock.now
    let (isOpen, isOutage) = state.withLock { state in
      followAvailability(&state)
      return (state.isOpen, state.isOutage)
    }
    if isOutage { return now }
    return isOpen && listener.isFresh(at: now) ? now : nil
  }

  /// Enters the outage (`lower` became unavailable) or leaves it (available again):
  /// either way `upper` is emptied, so that during an outage it holds only the
  /// origin's loads made during it, and none of those after it.
  private func followAvailability(_ state: inout State) {
    let isOutage = !lower.isAvailable
    guard isOutage != state.isOutage else { return }
    state.isOutage = isOutage
    // Leaving: no outage load in flight is kept.
    if !isOutage { bumpAll(&state) }
    upper.clear()
  }

  /// Sets `value`, read from `lower` by a read that started at `start`, into `upper`
  /// (until `expiresAt` when given, or sooner when the upper level's own policy says)
  /// unless the listener is down or a write or notice for its stripe arrived since.
  private func copyUp(
    _ value: Data, key: KeyType, expiresAt: Date? = nil, since start: ContinuousClock.Instant
  ) {
    state.withLock { state in
      followAvailability(&state)
      guard state.isOpen, !state.isOutage, state.bumpedAt[stripe(key)] < start else { return }
      set(value, key: key, expiresAt: expiresAt, &state)
    }
  }

  /// Keeps `value`, loaded from the origin by a load that started at `start`, in
  /// `upper` until `expiresAt`, while `lower` is unavailable, unless a write through
  /// this cache or a notice for its stripe came since.
  private func keepOutageLoad(
    _ value: Data, key: KeyType, expiresAt: Date?, since start: ContinuousClock.Instant
  ) {
    state.withLock { state in
      followAvailability(&state)
      guard state.isOutage, state.bumpedAt[stripe(key)] < start else { return }
      set(value, key: key, expiresAt: expiresAt, &state)
    }
  }

  /// Sets `value` into `upper` until `expiresAt` (or the upper level's own policy).
  private func set(_ value: Data, key: KeyType, expiresAt: Date?, _ state: inout State) {
    track(key, &state)
    do {
      let copied =
        if let expiresAt {
          upper.set(
            value, forKey: key,
            expiry: upper.expiry(forCopyOf: value, forKey: key, expiringAt: expiresAt))
        } else {
          upper.set(value, forKey: key)
        }
      copied.onFailure { error in
        WarningLimiter.shared.warn(
          "Could not copy a value into the upper level: \(error)",
          kind: "copy into the upper level failed",
          metadata: ["level": "\(Upper.self)", "key": CarlosLogger.key(key)])
      }
    }
  }

  // MARK: Loading

  /// The value of `key` from `upper`, else `lower`, else `loader`'s: loaded once per
  /// key in this process at a time (concurrent gets share the load), stored into
  /// `lower` (until the loaded expiry, or `lower`'s default) only if `lower` still has
  /// no value for the key, so a slow load never replaces a value written meanwhile
  /// (the written value is answered instead), and copied into `upper`.
  ///
  /// While `lower` is unavailable, the loaded value is answered and kept in `upper`
  /// (see the guarantee above), so the origin sees one load per key per lifetime
  /// from this instance even then.
  ///
  /// ```swift
  /// let user = try await cache.get("user:42") { id in Loaded(try await api.user(id)) }
  /// ```
  public func get(
    _ key: KeyType, orLoad loader: @escaping @Sendable (KeyType) async throws -> Loaded<Data>
  ) async throws -> Data {
    if readStart() != nil, let value = try? await upper.get(key).value { return value }
    return try await filled(key, loader)
  }

  /// A value a pass of ``get(_:orLoad:)`` answered, and when the read it comes from
  /// started: it is at least as new as every write acknowledged before then.
  private struct Answer: Sendable {
    var value: Data
    var readStart: ContinuousClock.Instant
  }

  /// `key`'s value from the pass in flight for it, or from a new one. A pass that
  /// started reading more than the staleness bound before this call may have missed
  /// a write acknowledged since, so its answer is not taken: a pass started after this
  /// call answers instead.
  private func filled(
    _ key: KeyType, _ loader: @escaping @Sendable (KeyType) async throws -> Loaded<Data>
  ) async throws -> Data {
    let start = ContinuousClock.now
    let answer = try await shared(key) { [self] in try await fill(key, loader) }
    guard answer.readStart < start - listener.stalenessBound else { return answer.value }
    return try await shared(key) { [self] in try await fill(key, loader) }.value
  }

  /// `work`'s answer, run once for `key` however many callers ask while it runs.
  private func shared(
    _ key: KeyType, _ work: @escaping @Sendable () async throws -> Answer
  ) async throws -> Answer {
    let task = loads.withLock { running -> Task<Answer, any Error> in
      if let task = running[key] { return task }
      let task = Task { [self] in
        defer { _ = loads.withLock { $0.removeValue(forKey: key) } }
        return try await work()
      }
      running[key] = task
      return task
    }
    return try await task.value
  }

  /// Reads `key` from `lower`, else loads and stores it (see ``get(_:orLoad:)``).
  private func fill(
    _ key: KeyType, _ loader: @Sendable (KeyType) async throws -> Loaded<Data>
  ) async throws -> Answer {
    let start = ContinuousClock.now
    if let entry: CacheEntry<Data> = try? await lower.entry(forKey: key) {
      copyUp(entry.value, key: key, expiresAt: entry.expiresAt, since: start)
      return Answer(value: entry.value, readStart: start)
    }
    let loaded = try await loader(key)
    let expiry = loaded.expiry == .never ? lower.options.defaultExpiry : loaded.expiry
    let storedAt = lower.options.clock.now()
    if lower.isAvailable {
      do {
        // Stored only if no write came first: then newer than every write before now.
        let inserting = ContinuousClock.now
        if try await lower.insertIfAbsent(loaded.value, forKey: key, expiry: expiry).value {
          copyUp(loaded.value, key: key, expiresAt: expiry.date(storedAt: storedAt), since: start)
          return Answer(value: loaded.value, readStart: inserting)
        }
        // A write stored a value after this get's read: it wins over the load.
        let reread = ContinuousClock.now
        let written: CacheEntry<Data> = try await lower.entry(forKey: key)
        copyUp(written.value, key: key, expiresAt: written.expiresAt, since: reread)
        return Answer(value: written.value, readStart: reread)
      } catch {
        if lower.isAvailable {
          WarningLimiter.shared.warn(
            "Could not store a loaded value in PostgreSQL: \(error)",
            kind: "store of a load failed",
            metadata: ["level": lower.name])
          return Answer(value: loaded.value, readStart: start)
        }
      }
    }
    keepOutageLoad(
      loaded.value, key: key, expiresAt: expiry.date(storedAt: storedAt), since: start)
    // PostgreSQL is unreachable: no write can be missed, and joining gets take the load.
    return Answer(value: loaded.value, readStart: .now)
  }

  private func handle(_ event: PostgresInvalidationListener.Event) {
    switch event {
    case .listening, .stopped:
      state.withLock { state in
        followAvailability(&state)
        state.isOpen = event == .listening
        // During an outage `upper` holds only loads, which do not depend on notices.
        guard !state.isOutage else { return }
        bumpAll(&state)
        upper.clear()
      }
    case .notice(let notice):
      guard notice.namespace == lower.name, notice.sender != lower.instanceID else { return }
      if case .key(let bytes) = notice.scope, lower.options.keyHashing != nil {
        let refreshed = state.withLock { state -> KeyType? in
          guard let key = state.keysByDigest[bytes] else {
            // Not in `upper`; a get in flight may be about to copy it up.
            bumpVersions(&state)
            return nil
          }
          if notice.isRefresh { return key }
          state.keysByDigest[bytes] = nil
          drop(key, &state)
          return nil
        }
        if let refreshed { reread(refreshed) }
      } else if case .key(let bytes) = notice.scope,
        let key = makeKey(String(decoding: bytes, as: UTF8.self))
      {
        if notice.isRefresh {
          reread(key)
        } else {
          state.withLock { drop(key, &$0) }
        }
      } else {
        state.withLock { state in
          bumpAll(&state)
          upper.clear()
        }
      }
      onInvalidation?(notice)
    }
  }

  /// Removes `key` from `upper`, so no get in flight copies an older value up.
  private func drop(_ key: KeyType, _ state: inout State) {
    state.bumpedAt[stripe(key)] = .now
    upper.remove(key)
  }

  /// Replaces `upper`'s copy of `key`, refreshed in `lower` by another instance, with
  /// the new value; the old copy (still valid until its expiry) is served meanwhile.
  private func reread(_ key: KeyType) {
    let start = ContinuousClock.now
    lower.entry(forKey: key).onCompletion { [self] result in
      if case .success(let entry) = result {
        copyUp(entry.value, key: key, expiresAt: entry.expiresAt, since: start)
      } else {
        state.withLock { drop(key, &$0) }
      }
    }
  }

  /// Bumps every stripe and forgets the digests: `upper` is being emptied.
  private func bumpAll(_ state: inout State) {
    bumpVersions(&state)
    state.keysByDigest.removeAll()
  }

  /// Bumps every stripe, so no get in flight copies its value up.
  private func bumpVersions(_ state: inout State) {
    let now = ContinuousClock.now
    for index in state.bumpedAt.indices { state.bumpedAt[index] = now }
  }

  /// Remembers the digest of `key`, about to be put into `upper`, when `lower`
  /// hashes keys; past the limit, empties `upper` first.
  private func track(_ key: KeyType, _ state: inout State) {
    guard lower.options.keyHashing != nil, let digest = try? lower.encode(key) else { return }
    if state.keysByDigest.count >= Self.trackedKeyLimit, state.keysByDigest[digest] == nil {
      bumpAll(&state)
      upper.clear()
    }
    state.keysByDigest[digest] = key
  }

  private func stripe(_ key: KeyType) -> Int {
    key.hashValue & 15
  }
}

extension CoherentCache where Upper.KeyType == String {
  /// Creates the coherent composition of `upper` and `lower` for string keys;
  /// `onInvalidation` as in ``init(upper:lower:listener:makeKey:onInvalidation:)``.
  public convenience init(
    upper: Upper, lower: PostgresCacheLevel<String>, listener: PostgresInvalidationListener,
    onInvalidation: (@Sendable (InvalidationNotice) -> Void)? = nil
  ) {
    self.init(
      upper: upper, lower: lower, listener: listener, makeKey: { $0 },
      onInvalidation: onInvalidation)
  }
}

extension CoherentCache: TimedCacheLevel where Upper: TimedCacheLevel {
  /// The entry in `upper`, else `lower`'s (copied up as ``get(_:)`` does), or only
  /// `lower`'s while the listener is down.
  public func entry(forKey key: KeyType) -> Future<CacheEntry<Data>> {
    guard let start = readStart() else { return lower.entry(forKey: key) }
    let first = upper.entry(forKey: key)
    if case .success? = first.result { return first }
    return read(key, below: first, since: start) { $0 }
  }
}

extension CoherentCache: InsertingCacheLevel where Upper: TimedCacheLevel {
  /// Stores `value` with `lower`'s default expiry unless `lower` holds a value for
  /// `key`, atomically across every process; when stored, `upper` gets it too.
  @discardableResult
  public func insertIfAbsent(_ value: Data, forKey key: KeyType) -> Future<Bool> {
    insertIfAbsent(value, forKey: key, expiry: lower.options.defaultExpiry)
  }

  /// Stores `value` until `expiry` unless `lower` holds a value for `key`, atomically
  /// across every process; when stored, `upper` gets it too, with the same expiry,
  /// unless a write or notice for its stripe arrived meanwhile.
  @discardableResult
  public func insertIfAbsent(_ value: Data, forKey key: KeyType, expiry: Expiry) -> Future<Bool> {
    let start = ContinuousClock.now
    let now = lower.options.clock.now()
    return lower.insertIfAbsent(value, forKey: key, expiry: expiry).map { [self] stored in
      if stored {
        copyUp(value, key: key, expiresAt: expiry.date(storedAt: now), since: start)
      }
      return stored
    }
  }
}

extension CoherentCache where Upper: TimedCacheLevel {
  /// Gets from `upper`, else through `flight` (a value `lower` holds, or one load of
  /// `loader` across every instance; `flight` must be over `lower`), copying the value
  /// into `upper` as ``get(_:)`` does, until the expiry it has in `lower`.
  ///
  /// With the flight's ``PostgresSingleFlight/refreshAhead``, a hit in `upper` that
  /// expires within the window starts the flight's refresh; the instance that
  /// refreshes puts the new value into its `upper`, the others keep serving the old
  /// one until the refresh's notice has them read the new one from `lower`.
  ///
  /// ```swift
  /// let flight = PostgresSingleFlight(level: shared, listener: listener)
  /// let user = try await cache.get("user:42", through: flight) { key in try await api.user(key) }
  /// ```
  @inlinable
  public func get(
    _ key: KeyType, through flight: PostgresSingleFlight<KeyType>,
    orLoad loader: @escaping @Sendable (KeyType) async throws -> Loaded<Data>
  ) async throws -> Data {
    if let start = readStart() {
      if flight.refreshAhead == nil {
        // Nothing to refresh: the cheaper read.
        let first: Future<Data> = upper.get(key)
        if let value = try? await first.value { return value }
      } else {
        let first: Future<CacheEntry<Data>> = upper.entry(forKey: key)
        if let hit = try? await first.value {
          if flight.isDue(hit.expiresAt) {
            refresh(key, hit, through: flight, loader, since: start)
          }
          return hit.value
        }
      }
    }
    return try await load(key, through: flight, loader)
  }

  /// The rest of ``get(_:through:orLoad:)`` after a miss in `upper` (or with `upper`
  /// bypassed). While `lower` is unavailable, the value is loaded as
  /// ``get(_:orLoad:)`` does: once per key in this process at a time.
  @usableFromInline
  func load(
    _ key: KeyType, through flight: PostgresSingleFlight<KeyType>,
    _ loader: @escaping @Sendable (KeyType) async throws -> Loaded<Data>
  ) async throws -> Data {
    precondition(flight.level === lower, "the flight must be over this cache's lower level")
    let found: PostgresSingleFlight<KeyType>.Found
    do {
      found = try await flight.found(key, orLoad: loader)
    } catch {
      guard !lower.isAvailable else { throw error }
      return try await filled(key, loader)
    }
    copyUp(found.entry.value, key: key, expiresAt: found.entry.expiresAt, since: found.readStart)
    if state.withLock({ $0.isOpen }), flight.isDue(found.entry.expiresAt) {
      refresh(key, found.entry, through: flight, loader, since: found.readStart)
    } else {
      flight.refreshIfDue(key, found.entry, loader)
    }
    return found.entry.value
  }

  /// ``get(_:through:orLoad:)`` with values stored under `lower`'s default expiry.
  @inlinable
  public func get(
    _ key: KeyType, through flight: PostgresSingleFlight<KeyType>,
    orLoad loader: @escaping @Sendable (KeyType) async throws -> Data
  ) async throws -> Data {
    try await get(key, through: flight) { key in Loaded(try await loader(key)) }
  }

  /// Starts the flight's refresh of `key` when `found` is due; the new value goes into
  /// `upper` unless a write or notice for its stripe arrived since `start`.
  @usableFromInline
  func refresh(
    _ key: KeyType, _ found: CacheEntry<Data>, through flight: PostgresSingleFlight<KeyType>,
    _ loader: @escaping @Sendable (KeyType) async throws -> Loaded<Data>,
    since start: ContinuousClock.Instant
  ) {
    flight.refreshIfDue(key, found, loader) { [self] fresh in
      copyUp(fresh.value, key: key, expiresAt: fresh.expiresAt, since: start)
    }
  }
}
#endif
