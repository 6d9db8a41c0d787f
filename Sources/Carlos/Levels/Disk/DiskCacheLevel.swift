import Dispatch
import Foundation

/// A persistent cache level that keeps its values in files inside one folder.
///
/// - Values: `Data` is stored byte for byte; any other `Codable` value is stored
///   as JSON. A file written with another encoding, or that does not decode as
///   `Value`, fails the get with ``FetchError/invalidCachedData`` and is removed.
/// - Keys never become paths: each file is named after the SHA-256 digest of the
///   key, and the full key is stored in the file and checked on every read, so a
///   digest collision can never return another key's value (the later key simply
///   replaces the earlier one). Any key, however hostile (`../../etc/passwd`, an
///   absolute path, empty, huge, emoji), stays inside the folder. Keys are
///   stored in Unicode NFC (see `CanonicalKey`): `"é"` precomposed and
///   decomposed are one key here, as they are one `String` in Swift.
/// - Capacity: the files (header and key included) never take more than
///   `capacity` bytes together once a `set` has completed; the least recently
///   read or written files are removed first, and a folder found over capacity
///   is trimmed when a level opens it. Recency survives restarts through the
///   files' modification times (every read touches its file),
///   with the file system's timestamp resolution and 10 ms for repeated reads.
/// - Persistence: a new level on the same folder sees the values of earlier ones,
///   including those of other processes. Each level counts only the files it
///   knows of (those it found when opening the folder, wrote or read).
/// - Atomic writes: a value is written to a temporary file in the folder, then
///   renamed over the old file, so a crash leaves the old value or the new one,
///   never a mix; temporary files of crashed processes are removed when a level
///   opens the folder. Files carry a checksum: a torn, truncated or garbled file
///   is a miss and is removed. Writes are not `fsync`ed, to keep `set` as fast
///   as a plain write and rename: a process crash loses nothing that was
///   written, but after a power loss a recent value may be missing (never wrong).
/// - Threads: a `get` answers on the caller's thread with a completed future:
///   it reads the file (normally from the page cache, a few microseconds, but it
///   is a blocking read) and never waits for a write in progress. Writes, clears
///   and removals run on the level's own queue, one at a time and in the order
///   they were asked for; their futures complete (and callbacks run) there.
///   Gets still see them in order: a `get` issued after a `set` of its key
///   answers with that value even while the file is being written (even if
///   the write then fails), and a `get` issued after `clear()` is a miss for
///   every key not set since, even before the files are gone. A `get` racing
///   a `set` of its key gets the old value or the new one, never a mix.
/// - Expiry: the level's `expiration` policy, or the expiry given to
///   ``set(_:forKey:expiry:)``, is written in the file's header; an expired file
///   is a miss and is removed when read, by ``removeExpired()`` (which reads only
///   the headers), when a level opens the folder, and first when the level is
///   over capacity. ``ExpirationPolicy/afterAccess(_:)`` counts from the write, as
///   ``ExpirationPolicy/afterWrite(_:)`` does: a read does not extend it. Time
///   comes from `clock` and never goes back for a level: a clock set back cannot
///   bring an expired value back. A deadline too far away to represent (after
///   the year 2262) is stored as "never". Files written before expiry existed
///   (format version 1) are read as never expiring.
///
///   ```swift
///   let responses = DiskCacheLevel<String, Data>(
///     path: folder, expiration: .afterWrite(.seconds(3600)))
///   responses.set(body, forKey: url)                                    // an hour
///   responses.set(token, forKey: "token", expiry: .at(tokenExpiryDate)) // its own
///   let entry = try await responses.entry(forKey: url).value            // + storedAt, expiresAt
///   ```
/// - Permissions: the level's files are `0600` (readable and writable by their owner
///   only), whatever the folder. A folder the level creates, its default one
///   included, is `0700`; a folder that exists keeps its own mode. A folder that its
///   group or everyone may write, or that another user owns, is refused (every
///   operation fails with ``DiskCacheLevelError/unsafeFolder(path:mode:owner:)``)
///   unless the level is made with `allowSharedFolder: true`.
///
/// The `FileManager` given to the initializer is `Sendable` (on Linux too) and
/// is kept as is; it only creates and lists the folder, while reads and writes
/// use POSIX calls directly.
public final class DiskCacheLevel<Key: StringConvertible & Sendable, Value: Sendable>:
  TimedCacheLevel, InsertingCacheLevel
{
  public typealias KeyType = Key
  public typealias OutputType = Value

  /// The level's name in answers, statistics and log messages: `DiskCacheLevel`.
  public var levelName: String { "DiskCacheLevel" }

  /// The earlier of `deadline` and the moment this level's expiration policy gives a
  /// value stored now: how long a composition keeps a copy of a value from below.
  public func expiry(forCopyOf value: Value, forKey key: Key, expiringAt deadline: Date) -> Expiry {
    expiration.expiry(
      ofCopyOf: value, forKey: key, storedAt: CacheInstant(nanoseconds: clock.nanoseconds()),
      expiringAt: deadline)
  }

  /// The folder that holds the level's files.
  public let path: String
  /// The most bytes the level's files may take on disk together.
  public let capacity: UInt64
  /// How long values stay valid when `set` is given no expiry of its own.
  public let expiration: ExpirationPolicy<Key, Value>
  /// Where the level reads the time.
  public let clock: any CacheClock

  private let fileManager: FileManager
  private let coder: DiskValueCoder<Value>
  private let hooks: DiskCacheHooks
  /// Runs the index scan, writes, clears and removals one at a time, in order
  /// (gets do not use it). Serial, so it gets a thread of its own when the
  /// shared pool is busy: its work blocks on the disk.
  private let queue: DispatchQueue
  private let state: Lock<DiskCacheLevelState>
  /// Counts hits, misses and evictions.
  private let recorder = StatisticsRecorder()
  /// The level's observers; events carry the keys' canonical strings.
  private let hub = EventHub<String>()
  /// Starts the name of every temporary file of this level: `.tmp-<pid>-<random>-`.
  private let temporaryPrefix: String
  /// The latest time read from `clock`, so that time never goes back for the level.
  private let timeline = Lock(MonotonicReading())
  /// Why the folder is refused, if it is: every operation fails with it.
  private let refusal: DiskCacheLevelError?

  /// Creates a level on the folder at `path` with an explicit value coder and hooks.
  package init(
    path: String,
    capacity: UInt64,
    fileManager: FileManager,
    coder: DiskValueCoder<Value>,
    hooks: DiskCacheHooks,
    expiration: ExpirationPolicy<Key, Value> = .never,
    clock: any CacheClock = SystemClock(),
    allowSharedFolder: Bool = false
  ) {
    self.path = URL(fileURLWithPath: path).standardizedFileURL.path
    self.capacity = capacity
    self.expiration = expiration
    self.clock = clock
    self.fileManager = fileManager
    self.coder = coder
    self.hooks = hooks
    self.queue = DispatchQueue(label: "Carlos.DiskCacheLevel")
    self.state = Lock(DiskCacheLevelState())
    let random = DiskCacheHooks.hex(
      withUnsafeBytes(of: UInt64.random(in: .min ... .max)) { Array($0) })
    self.temporaryPrefix =
      "\(DiskCacheLevelFiles.temporaryMarker)\(DiskFile.currentProcess)-\(random)-"
    let folder = self.path
    let created = Result { try Self.createFolder(at: folder, fileManager: fileManager) }
    refusal = allowSharedFolder ? nil : DiskCacheLevelFiles.unsafeFolder(folder)
    state.withLock { $0.directoryReady = (try? created.get()) != nil }
    if case .failure(let error) = created {
      CarlosLogger.log("Disk cache folder \(self.path) is not usable yet: \(error)", .warning)
    }
    if let refusal {
      CarlosLogger.log("\(refusal)", .error)
      return
    }
    // Learn what earlier levels left in the folder. Reads may run meanwhile;
    // writes and clears queue behind the scan. A folder left
    // over capacity (a smaller capacity, or a writer killed between its rename
    // and its evictions) is trimmed before anything else is written; expired
    // files are removed by the scan.
    queue.async { [self] in loadIndex() }
    queue.async { [self] in evictToCapacity(keeping: nil) }
  }

  // MARK: - CacheLevel

  /// Reads the value stored for `key`.
  ///
  /// Answers on the calling thread with a completed future. Fails with
  /// ``FetchError/valueNotInCache`` when there is no valid file for the key (a
  /// corrupted one, or one that cannot be read, is removed; not when the process is
  /// out of descriptors or memory), with ``FetchError/invalidCachedData`` when the
  /// stored value cannot be decoded as `Value`, and with
  /// ``FetchError/invalidKey`` when the key cannot be named. An expired value
  /// is a miss (and its file is removed).
  public func get(_ key: Key) -> Future<Value> {
    if let refusal { return Future(refusal) }
    return counted(lookUpValue(key))
  }

  /// Counts `answer` as a hit or a miss (it is always complete).
  private func counted<T>(_ answer: Future<T>) -> Future<T> {
    if case .success? = answer.result { recorder.recordHit() } else { recorder.recordMiss() }
    return answer
  }

  /// The get, without counting.
  private func lookUpValue(_ key: Key) -> Future<Value> {
    let keyBytes = Array(CanonicalKey.string(for: key).utf8)
    guard let lookup = lookUp(keyBytes) else { return coder.failed(FetchError.invalidKey) }
    switch lookup {
    case .disk(let file, let stamp):
      var times = DiskEntryTimes()
      return read(file, key: keyBytes, since: stamp, times: &times)
    case .pending(let value, _, let expiresAt):
      // Always a `Value`: only `set` registers pending writes.
      guard let value = value as? Value, !isExpired(expiresAt) else {
        return coder.failed(FetchError.valueNotInCache)
      }
      return coder.succeeded(value)
    case .miss, .unnamed:
      return coder.failed(FetchError.valueNotInCache)
    }
  }

  /// Reads the value stored for `key` with when it was stored and when it expires.
  ///
  /// Fails like ``get(_:)``. For a file written before expiry existed (format
  /// version 1), `storedAt` is the file's modification time (the time of its
  /// last use, to within 10 ms) and `expiresAt` is nil.
  ///
  /// ```swift
  /// let entry = try await disk.entry(forKey: "report").value
  /// print(entry.value, entry.storedAt, entry.expiresAt ?? "never")
  /// ```
  public func entry(forKey key: Key) -> Future<CacheEntry<Value>> {
    if let refusal { return Future(refusal) }
    return counted(lookUpEntry(key))
  }

  /// The entry, without counting.
  private func lookUpEntry(_ key: Key) -> Future<CacheEntry<Value>> {
    let keyBytes = Array(CanonicalKey.string(for: key).utf8)
    guard let lookup = lookUp(keyBytes) else { return Future(FetchError.invalidKey) }
    switch lookup {
    case .disk(let file, let stamp):
      var times = DiskEntryTimes()
      let value = read(file, key: keyBytes, since: stamp, times: &times)
      return value.map { [times] value in times.entry(of: value) }
    case .pending(let value, let storedAt, let expiresAt):
      guard let value = value as? Value, !isExpired(expiresAt) else {
        return Future(FetchError.valueNotInCache)
      }
      return Future(DiskEntryTimes(storedAt: storedAt, expiresAt: expiresAt).entry(of: value))
    case .miss, .unnamed:
      return Future(FetchError.valueNotInCache)
    }
  }

  /// Where a get of `keyBytes` finds its answer; nil when the key cannot be named.
  private func lookUp(_ keyBytes: [UInt8]) -> DiskCacheLevelState.Lookup? {
    let lookup = state.withLock { $0.lookUp(keyBytes) }
    guard case .unnamed = lookup else { return lookup }
    guard let file = name(keyBytes) else { return nil }
    return state.withLock { state in
      state.remember(file, of: keyBytes)
      return state.lookUp(keyBytes, in: file)
    }
  }

  /// Stores `value` for `key`, replacing any earlier value, then removes the
  /// least recently used files until the level fits its capacity. The value
  /// expires as the level's `expiration` policy says.
  ///
  /// The write runs on the level's queue; until it is done, gets of `key`
  /// answer with `value` (cancelling the returned future before the write
  /// starts withdraws it). Fails with a ``DiskCacheLevelError`` when the value
  /// cannot be encoded, is larger than the capacity, or the disk refuses the
  /// write; the values stored before stay readable.
  @discardableResult
  public func set(_ value: Value, forKey key: Key) -> Future<Void> {
    if let refusal { return Future(refusal) }
    return store(
      value, forKey: key, expiry: expiration.isNever ? .never : expiration.expiry(of: key, value))
  }

  /// Stores `value` for `key` like ``set(_:forKey:)``, valid until `expiry`
  /// instead of what the level's policy says.
  ///
  /// An expiry already past (a zero or negative duration, a date not after now)
  /// stores nothing: it removes any older value of `key`, like ``remove(_:)``,
  /// and succeeds once that is done.
  ///
  /// ```swift
  /// disk.set(token, forKey: "session", expiry: .after(.seconds(900)))
  /// ```
  @discardableResult
  public func set(_ value: Value, forKey key: Key, expiry: Expiry) -> Future<Void> {
    if let refusal { return Future(refusal) }
    return store(value, forKey: key, expiry: expiry)
  }

  /// Stores `value` for `key`, expiring as `expiry` says.
  private func store(_ value: Value, forKey key: Key, expiry: Expiry) -> Future<Void> {
    let keyBytes = Array(CanonicalKey.string(for: key).utf8)
    guard keyBytes.count <= UInt32.max, let file = file(of: keyBytes) else {
      return Future(FetchError.invalidKey)
    }
    let now = currentTime()
    let deadline = expiry.deadline(storedAt: now)
    if let deadline, deadline <= now {
      return enqueueRemoval(of: file, key: keyBytes)
    }
    let storedAt = now.nanoseconds
    // A deadline that saturated to the end of representable time never comes.
    let expiresAt = deadline.flatMap { $0 == .distantFuture ? nil : $0.nanoseconds }
    let name = file.name
    let generation = state.withLock {
      $0.beginWrite(name, key: keyBytes, value: value, storedAt: storedAt, expiresAt: expiresAt)
    }
    let promise = Promise<Void>()
    promise.future.onCancel { [self] in
      state.withLock { $0.endWrite(name, generation: generation) }
    }
    queue.async { [self] in
      if promise.future.isCompleted { return }
      let outcome = finishWrite(
        value, key: keyBytes, storedAt: storedAt, expiresAt: expiresAt, to: file,
        generation: generation)
      promise.complete(outcome.map { _ in () })
    }
    return promise.future
  }

  /// Writes a value whose write `generation` began, on the queue; then gets read the
  /// disk again, and observers hear of the set. The outcome says whether it stored.
  private func finishWrite(
    _ value: Value, key keyBytes: [UInt8], storedAt: Int64, expiresAt: Int64?,
    to file: DiskCacheLevelState.File, generation: UInt64
  ) -> FutureResult<Bool> {
    let outcome = Result {
      try write(value, key: keyBytes, storedAt: storedAt, expiresAt: expiresAt, to: file)
    }
    // The file is in place (or the write failed): gets read the disk again.
    state.withLock { $0.endWrite(file.name, generation: generation) }
    switch outcome {
    case .success:
      hub.emit(.set(String(decoding: keyBytes, as: UTF8.self)))
      return .success(true)
    case .failure(let error): return .error(error)
    }
  }

  /// Stores `value` for `key` unless a value (not expired) is stored there; succeeds
  /// with whether it stored. The value expires as the level's `expiration` policy says.
  ///
  /// Runs on the level's queue after the operations asked for before it, and the
  /// check and the write happen there together, so of concurrent inserts of one key
  /// exactly one stores. A set of the key asked for meanwhile counts as a stored value.
  @discardableResult
  public func insertIfAbsent(_ value: Value, forKey key: Key) -> Future<Bool> {
    if let refusal { return Future(refusal) }
    return insertIfAbsent(
      value, forKey: key,
      expiry: expiration.isNever ? .never : expiration.expiry(of: key, value))
  }

  /// Stores `value` for `key`, valid until `expiry`, unless a value (not expired) is
  /// stored there; succeeds with whether it stored (see ``insertIfAbsent(_:forKey:)``).
  /// An expiry already past stores nothing and succeeds with false.
  @discardableResult
  public func insertIfAbsent(_ value: Value, forKey key: Key, expiry: Expiry) -> Future<Bool> {
    if let refusal { return Future(refusal) }
    let keyBytes = Array(CanonicalKey.string(for: key).utf8)
    guard keyBytes.count <= UInt32.max, let file = file(of: keyBytes) else {
      return Future(FetchError.invalidKey)
    }
    let promise = Promise<Bool>()
    queue.async { [self] in
      if promise.future.isCompleted { return }
      let now = currentTime()
      let deadline = expiry.deadline(storedAt: now)
      if let deadline, deadline <= now { return promise.succeed(false) }
      if case .success? = lookUpEntry(key).result { return promise.succeed(false) }
      let storedAt = now.nanoseconds
      let expiresAt = deadline.flatMap { $0 == .distantFuture ? nil : $0.nanoseconds }
      let name = file.name
      let generation = state.withLock {
        $0.beginWrite(name, key: keyBytes, value: value, storedAt: storedAt, expiresAt: expiresAt)
      }
      promise.complete(
        finishWrite(
          value, key: keyBytes, storedAt: storedAt, expiresAt: expiresAt, to: file,
          generation: generation))
    }
    return promise.future
  }

  /// Removes the file of `key`, if any.
  ///
  /// The removal runs on the level's queue, after the writes asked for before it;
  /// gets of `key` issued after `remove` miss at once. Fails with
  /// ``FetchError/invalidKey`` when the key cannot be named.
  @discardableResult
  public func remove(_ key: Key) -> Future<Void> {
    if let refusal { return Future(refusal) }
    let keyBytes = Array(CanonicalKey.string(for: key).utf8)
    guard keyBytes.count <= UInt32.max, let file = file(of: keyBytes) else {
      return Future(FetchError.invalidKey)
    }
    return enqueueRemoval(of: file, key: keyBytes)
  }

  /// Removes `file`, the file of `keyBytes`, on the queue, after the writes
  /// asked for before; gets of the key miss from now on.
  private func enqueueRemoval(
    of file: DiskCacheLevelState.File, key keyBytes: [UInt8]
  ) -> Future<Void> {
    let name = file.name
    let generation = state.withLock { $0.beginWrite(name, key: keyBytes, value: nil) }
    let promise = Promise<Void>()
    queue.async { [self] in
      let existed = hub.isObserved && DiskFile.info(file.path) != nil
      DiskFile.removeItem(file.path)
      state.withLock { state in
        state.recordRemoval(name)
        state.endWrite(name, generation: generation)
      }
      if existed { hub.emit(.removed(String(decoding: keyBytes, as: UTF8.self))) }
      promise.succeed(())
    }
    return promise.future
  }

  /// Removes every expired file of the level's folder, reading only the files'
  /// headers.
  ///
  /// Runs on the level's queue, after the operations asked for before; the
  /// future completes when the files are gone.
  ///
  /// ```swift
  /// try await disk.removeExpired().value
  /// ```
  @discardableResult
  public func removeExpired() -> Future<Void> {
    if let refusal { return Future(refusal) }
    let promise = Promise<Void>()
    queue.async { [self] in
      let now = currentTime().nanoseconds
      let names = (try? fileManager.contentsOfDirectory(atPath: path)) ?? []
      var removed: [String] = []
      for name in names where DiskCacheLevelFiles.isCacheFile(name) {
        if removeIfExpired(name, at: now) { removed.append(name) }
      }
      state.withLock { state in
        for name in removed { state.recordRemoval(name) }
      }
      promise.succeed(())
    }
    return promise.future
  }

  /// Removes the file `name` when its header says it expired at or before
  /// `now`; returns whether it did. Runs on the queue.
  private func removeIfExpired(_ name: String, at now: Int64) -> Bool {
    let filePath = filePath(name)
    guard let expiresAt = expiry(ofFileAt: filePath), expiresAt.deadline <= now,
      let info = DiskFile.info(filePath), info.identity == expiresAt.identity
    else {
      return false
    }
    let key = observedKey(ofFileAt: filePath)
    guard DiskFile.removeItem(filePath) else { return false }
    if let key { hub.emit(.expired(key)) }
    return true
  }

  /// When the file at `filePath` expires, read from its header; nil when it
  /// never does, or its header cannot be read (a full read judges it then).
  private func expiry(ofFileAt filePath: String) -> FileExpiry? {
    guard let head = DiskFile.readHead(filePath, count: DiskCacheFileFormat.headerSize) else {
      return nil
    }
    let header = head.bytes.withUnsafeBytes {
      DiskCacheFileFormat.header($0, fileSize: head.size)
    }
    guard case .success(let found) = header, let deadline = found.expiresAt else { return nil }
    return (deadline, head.identity)
  }

  /// When a file expires (nanoseconds since 1970), and which file it was.
  private typealias FileExpiry = (deadline: Int64, identity: DiskFile.Identity)

  /// Removes every file of the level from its folder (other files are left
  /// alone, and so are the temporary files of writes other processes have in
  /// flight). Finishes asynchronously; operations asked for afterwards see an empty level.
  public func clear() {
    if refusal != nil { return }
    // Writes asked for before the clear are undone by it.
    state.withLock { state in
      state.pendingClears += 1
      state.pendingWrites.removeAll()
    }
    queue.async { [self] in
      let names = (try? fileManager.contentsOfDirectory(atPath: path)) ?? []
      let now = DiskFile.now()
      for name in names {
        if DiskCacheLevelFiles.isCacheFile(name) {
          DiskFile.removeItem(filePath(name))
        } else if DiskCacheLevelFiles.isTemporaryFile(name),
          let info = DiskFile.info(filePath(name)),
          name.hasPrefix(temporaryPrefix)
            || DiskCacheLevelFiles.isAbandoned(name, modified: info.modified, now: now)
        {
          DiskFile.removeItem(filePath(name))
        }
      }
      state.withLock { state in
        state.recordClear()
        state.pendingClears -= 1
      }
      hub.emit(.cleared)
    }
  }

  /// Forgets the file names of recently used keys (they are computed again
  /// when needed). Values live on disk, and the sizes and recency of the files
  /// are kept: the level needs them to honor its capacity.
  public func onMemoryWarning() {
    state.withLock { $0.forgetFileNames() }
    queue.async { [self] in hub.emit(.memoryWarning) }
  }

  // MARK: - Statistics and observations

  /// What the level has done since it was created: hits, misses (corrupt and
  /// expired files included), and the files evicted for capacity with their bytes.
  public var statistics: CacheStatistics {
    recorder.snapshot
  }

  /// Calls `callback` with every event of the level, in the order the level's
  /// queue carried them out, until the token is cancelled or released. Events
  /// carry the keys' strings (in Unicode NFC): set, removed, expired, evicted
  /// (these two read the key from the file, only while someone observes),
  /// cleared and memory warnings.
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
    await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    await hub.afterDelivery()
  }

  // MARK: - Reading

  /// The whole file at `path`, or why not (the read hook may say it failed).
  private func readFile(_ path: String) -> Result<DiskFile.Contents, DiskFile.ReadFailure> {
    if let code = hooks.failRead(path) { return .failure(.unreadable(code)) }
    return DiskFile.read(path, limits: readLimits)
  }

  /// Reads `file`, the file of `key`, and returns a future completed with its
  /// value or the reason there is none; marks the file as recently used.
  /// `stamp` is the state of the index when the get started. `times` receives
  /// when the value was stored and when it expires.
  private func read(
    _ file: DiskCacheLevelState.File,
    key keyBytes: [UInt8],
    since stamp: DiskCacheLevelState.Stamp,
    times: inout DiskEntryTimes
  ) -> Future<Value> {
    let name = file.name
    let filePath = file.path
    var contents: DiskFile.Contents
    switch readFile(filePath) {
    case .success(let found):
      contents = found
    case .failure(.missing):
      return coder.failed(FetchError.valueNotInCache)
    case .failure(.rejected(let reason, let identity)):
      CarlosLogger.log("Disk cache removes \(filePath), not a cache file: \(reason)", .warning)
      if let identity { removeLater(name, ifStill: identity) }
      return coder.failed(FetchError.valueNotInCache)
    case .failure(.unreadable(let code)) where DiskFile.isTransient(code):
      CarlosLogger.log(
        "Disk cache could not read \(filePath) this time: \(DiskFile.describe(code))", .warning)
      return coder.failed(FetchError.valueNotInCache)
    case .failure(.unreadable(let code)):
      CarlosLogger.log(
        "Disk cache removes \(filePath), which it cannot read: \(DiskFile.describe(code))",
        .warning)
      if let identity = DiskFile.info(filePath)?.identity { removeLater(name, ifStill: identity) }
      return coder.failed(FetchError.valueNotInCache)
    }

    let file = contents.view
    let entry: DiskCacheFileFormat.Entry
    switch DiskCacheFileFormat.inspect(file) {
    case .success(let valid):
      entry = valid
    case .failure(let corruption):
      CarlosLogger.log("Disk cache removes corrupted file \(filePath) (\(corruption))", .warning)
      removeLater(name, ifStill: contents.identity)
      return coder.failed(FetchError.valueNotInCache)
    }
    let sameKey = keyBytes.withUnsafeBytes { expected in
      expected.elementsEqual(UnsafeRawBufferPointer(rebasing: file[entry.key]))
    }
    // Another key with the same digest: a valid file, but not ours.
    guard sameKey else { return coder.failed(FetchError.valueNotInCache) }
    if isExpired(entry.expiresAt) {
      removeLater(name, ifStill: contents.identity, expiredKey: keyBytes)
      return coder.failed(FetchError.valueNotInCache)
    }
    guard entry.encoding == coder.encoding else {
      CarlosLogger.log("Disk cache removes \(filePath): stored with another encoding", .warning)
      removeLater(name, ifStill: contents.identity)
      return coder.failed(FetchError.invalidCachedData)
    }

    let size = UInt64(file.count)
    let valueRange = entry.value
    guard let bytes = contents.takeBytes(), let base = bytes.baseAddress else {
      return coder.failed(FetchError.valueNotInCache)
    }
    let offset = valueRange.lowerBound
    let payload = Data(
      bytesNoCopy: base + offset,
      count: valueRange.count,
      deallocator: .custom { pointer, _ in (pointer - offset).deallocate() }
    )
    let value: Value
    do {
      value = try coder.decode(payload)
    } catch {
      CarlosLogger.log(
        "Disk cache removes \(filePath): cannot decode \(Value.self): \(error)", .warning)
      removeLater(name, ifStill: contents.identity)
      return coder.failed(FetchError.invalidCachedData)
    }
    times = DiskEntryTimes(
      storedAt: entry.storedAt ?? contents.modified, expiresAt: entry.expiresAt)
    // Record the use on disk for later processes; the file closes on return.
    contents.touch(unlessNewerThan: recencyTouchInterval)
    let expiresAt = entry.expiresAt
    state.withLock { $0.recordRead(name, size: size, expiresAt: expiresAt, since: stamp) }
    return coder.succeeded(value)
  }

  /// What a read accepts: nothing larger than the capacity or than its header says.
  private var readLimits: DiskFile.ReadLimits {
    DiskFile.ReadLimits(
      maximumSize: capacity, headerSize: DiskCacheFileFormat.headerSize,
      declaredSize: DiskCacheFileFormat.declaredSize)
  }

  /// Removes the file called `name` when it is still the file that was read
  /// (a write may have replaced it meanwhile); `expiredKey` is the key of an
  /// expired file, for the observers.
  private func removeLater(
    _ name: String, ifStill identity: DiskFile.Identity, expiredKey: [UInt8]? = nil
  ) {
    queue.async { [self] in
      let filePath = filePath(name)
      guard let info = DiskFile.info(filePath), info.identity == identity else { return }
      removeAnything(at: filePath)
      state.withLock { $0.recordRemoval(name) }
      if let expiredKey { hub.emit(.expired(String(decoding: expiredKey, as: UTF8.self))) }
    }
  }

  /// The key stored in the file at `filePath`, when observers need it (nil otherwise).
  private func observedKey(ofFileAt filePath: String) -> String? {
    guard hub.isObserved,
      let head = DiskFile.readHead(filePath, count: DiskCacheFileFormat.headerSize),
      let keyRange = head.bytes.withUnsafeBytes({ DiskCacheFileFormat.keyRange(inHeader: $0) }),
      let whole = DiskFile.readHead(filePath, count: keyRange.upperBound),
      whole.bytes.count == keyRange.upperBound
    else { return nil }
    return String(decoding: whole.bytes[keyRange], as: UTF8.self)
  }

  /// Removes what is at `path`, a directory (and what it holds) included.
  @discardableResult
  private func removeAnything(at path: String) -> Bool {
    if DiskFile.removeItem(path) { return true }
    guard errno == EISDIR || errno == EPERM else { return false }
    return (try? fileManager.removeItem(atPath: path)) != nil
  }

  // MARK: - Writing

  /// Writes `value` for `key` to `file`, stored at `storedAt` and expiring at
  /// `expiresAt` (nil: never), then evicts what no longer fits.
  private func write(
    _ value: Value,
    key keyBytes: [UInt8],
    storedAt: Int64,
    expiresAt: Int64?,
    to file: DiskCacheLevelState.File
  ) throws {
    let payload: Data
    do {
      payload = try coder.encode(value)
    } catch {
      throw DiskCacheLevelError.valueEncodingFailed(reason: String(describing: error))
    }
    let size = UInt64(DiskCacheFileFormat.headerSize + keyBytes.count + payload.count)
    guard size <= capacity else {
      throw DiskCacheLevelError.valueTooLarge(size: size, capacity: capacity)
    }
    if !state.withLock({ $0.directoryReady }) {
      try createDirectory()
    }

    let name = file.name
    let destination = file.path
    let failure: (path: String, errno: Int32)? = payload.withUnsafeBytes { body in
      let prefix = DiskCacheFileFormat.prefix(
        key: keyBytes, encoding: coder.encoding, storedAt: storedAt, expiresAt: expiresAt,
        value: body)
      var failure = attemptWrite(prefix: prefix, body: body, destination: destination)
      if let first = failure, first.errno == ENOENT, (try? createDirectory()) != nil {
        // The folder was removed behind the level's back: recreated, try once more.
        failure = attemptWrite(prefix: prefix, body: body, destination: destination)
      }
      if let first = failure, first.path == destination,
        [EISDIR, ENOTEMPTY, EEXIST].contains(first.errno),
        DiskFile.info(destination)?.isRegularFile == false, removeAnything(at: destination)
      {
        // A directory sits where the file goes: removed, try once more.
        failure = attemptWrite(prefix: prefix, body: body, destination: destination)
      }
      return failure
    }
    if let failure {
      throw DiskCacheLevelError.writeFailed(
        path: failure.path,
        errno: failure.errno,
        reason: DiskFile.describe(failure.errno)
      )
    }

    state.withLock { $0.recordWrite(name, size: size, expiresAt: expiresAt) }
    evictToCapacity(keeping: name)
  }

  /// Removes the least recently used files, except `kept`, until the level
  /// fits its capacity; when it is over capacity, expired files go first, all
  /// of them. Runs on the queue, so no write races the removals. A
  /// file leaves the index only once it is gone from the disk: a get that reads
  /// it meanwhile, and records the read after the removal, sees that something
  /// was removed since it started and leaves the index alone.
  private func evictToCapacity(keeping kept: String?) {
    let mayExpire = state.withLock { $0.index.totalBytes > capacity && !$0.deadlines.isEmpty }
    if mayExpire {
      let now = currentTime().nanoseconds
      let expired = state.withLock { $0.deadlines.takeExpired(at: now, excluding: kept) }
      for name in expired {
        let key = observedKey(ofFileAt: filePath(name))
        DiskFile.removeItem(filePath(name))
        if let key { hub.emit(.expired(key)) }
      }
      state.withLock { state in
        for name in expired { state.recordRemoval(name) }
      }
    }
    let victims = state.withLock {
      $0.index.leastRecentlyUsed(toFit: capacity, excluding: kept ?? "")
    }
    guard !victims.isEmpty else { return }
    for victim in victims {
      let key = observedKey(ofFileAt: filePath(victim))
      DiskFile.removeItem(filePath(victim))
      if let key { hub.emit(.evicted(key)) }
    }
    state.withLock { state in
      for victim in victims {
        recorder.recordEviction(cost: Int(clamping: state.index.size(of: victim) ?? 0))
        state.recordRemoval(victim)
      }
    }
  }

  private func attemptWrite(
    prefix: [UInt8],
    body: UnsafeRawBufferPointer,
    destination: String
  ) -> (path: String, errno: Int32)? {
    let count = state.withLock { state in
      state.writeCount += 1
      return state.writeCount
    }
    let temporaryPath = filePath(temporaryPrefix + String(count))
    if let code = hooks.failWrite(temporaryPath) {
      return (temporaryPath, code)
    }
    return DiskFile.writeAtomically(
      prefix: prefix, body: body, temporaryPath: temporaryPath, path: destination)
  }

  private func createDirectory() throws {
    do {
      try Self.createFolder(at: path, fileManager: fileManager)
    } catch {
      state.withLock { $0.directoryReady = false }
      throw error
    }
    state.withLock { $0.directoryReady = true }
  }

  /// Creates the folder at `path` (`0700`) and its parents, unless it exists.
  private static func createFolder(at path: String, fileManager: FileManager) throws {
    do {
      try fileManager.createDirectory(
        atPath: path, withIntermediateDirectories: true,
        attributes: [.posixPermissions: DiskCacheLevelFiles.folderMode])
    } catch {
      throw DiskCacheLevelError.couldNotCreateDirectory(
        path: path, reason: String(describing: error))
    }
  }

  // MARK: - Index

  /// Lists the folder: cache files join the index, oldest modification first,
  /// except expired ones, which are removed (their headers are read);
  /// temporary files left by dead processes are removed.
  private func loadIndex() {
    let names = (try? fileManager.contentsOfDirectory(atPath: path)) ?? []
    var found: [(name: String, size: UInt64, modified: Int64, expiresAt: Int64?)] = []
    let now = DiskFile.now()
    let clockNow = currentTime().nanoseconds
    for name in names {
      if DiskCacheLevelFiles.isCacheFile(name) {
        guard let info = DiskFile.info(filePath(name)), info.isRegularFile else { continue }
        let expiry = expiry(ofFileAt: filePath(name))
        if let expiry, expiry.deadline <= clockNow, expiry.identity == info.identity {
          DiskFile.removeItem(filePath(name))
          continue
        }
        found.append((name, info.size, info.modified, expiry?.deadline))
      } else if DiskCacheLevelFiles.isTemporaryFile(name), !name.hasPrefix(temporaryPrefix) {
        guard let info = DiskFile.info(filePath(name)) else { continue }
        if DiskCacheLevelFiles.isAbandoned(name, modified: info.modified, now: now) {
          DiskFile.removeItem(filePath(name))
        }
      }
    }
    found.sort { ($0.modified, $0.name) < ($1.modified, $1.name) }
    let files: [(name: String, size: UInt64)] = found.map { ($0.name, $0.size) }
    state.withLock { state in
      // Files the level learned of during the scan keep what it learned.
      for file in found where state.index.size(of: file.name) == nil {
        state.deadlines.set(file.name, expiresAt: file.expiresAt)
      }
      state.index.addOlder(files)
    }
  }

  /// The names of the level's files from least to most recently used (for tests).
  /// Answers once everything asked of the level before has run.
  package func filesByRecency() async -> [String] {
    await afterQueuedWork { $0.index.namesByRecency }
  }

  /// The total size the level believes its files have (for tests).
  /// Answers once everything asked of the level before has run.
  package func indexedBytes() async -> UInt64 {
    await afterQueuedWork { $0.index.totalBytes }
  }

  /// Reads the state once the queue has run everything before, without
  /// blocking the caller's thread.
  private func afterQueuedWork<T: Sendable>(
    _ read: @escaping @Sendable (DiskCacheLevelState) -> T
  ) async -> T {
    await withCheckedContinuation { continuation in
      queue.async { [self] in continuation.resume(returning: state.withLock { read($0) }) }
    }
  }

  // MARK: - Time

  /// The time now for the level: never earlier than an earlier answer.
  private func currentTime() -> CacheInstant {
    timeline.withLock { $0.read(clock) }
  }

  /// Whether a value expiring at `expiresAt` (nil: never) has expired.
  @inline(__always)
  private func isExpired(_ expiresAt: Int64?) -> Bool {
    guard let expiresAt else { return false }
    return expiresAt <= currentTime().nanoseconds
  }

  // MARK: - Names

  /// The file of `keyBytes`, remembered or named now; nil when the key cannot be named.
  private func file(of keyBytes: [UInt8]) -> DiskCacheLevelState.File? {
    if let file = state.withLock({ $0.file(of: keyBytes) }) { return file }
    guard let file = name(keyBytes) else { return nil }
    state.withLock { $0.remember(file, of: keyBytes) }
    return file
  }

  /// Names the file of `keyBytes` (not remembered); nil when the key cannot be named.
  private func name(_ keyBytes: [UInt8]) -> DiskCacheLevelState.File? {
    let stem = hooks.fileStem(keyBytes)
    guard DiskCacheLevelFiles.isValidStem(stem) else { return nil }
    let name = stem + DiskCacheLevelFiles.cacheSuffix
    return DiskCacheLevelState.File(name: name, path: filePath(name))
  }

  private func filePath(_ name: String) -> String {
    path + "/" + name
  }
}

extension DiskCacheLevel where Value == Data {
  /// Creates a level that stores `Data` byte for byte in the folder at `path`.
  ///
  /// - Parameters:
  ///   - path: the folder of the level. Defaults to a folder of this program's own,
  ///     `carlos` in a folder named after the executable in the user's cache folder
  ///     (`~/.cache/<executable>/carlos`, or under `$XDG_CACHE_HOME`), so two programs
  ///     never share values by accident. A folder the level creates is `0700` (owner
  ///     only); an existing folder keeps its mode.
  ///   - capacity: the most bytes the level's files may take together (100 MB by default).
  ///   - fileManager: creates and lists the folder.
  ///   - expiration: how long values stay valid when `set` is given no expiry
  ///     (never, by default).
  ///   - clock: where the level reads the time (the system's clock by default).
  ///   - allowSharedFolder: accept a folder that other users may write (its group
  ///     or everyone may write it, or another user owns it); refused by default, as
  ///     they could read values or plant them.
  public convenience init(
    path: String = defaultDiskCachePath(),
    capacity: UInt64 = 100 * 1024 * 1024,
    fileManager: FileManager = .default,
    expiration: ExpirationPolicy<Key, Data> = .never,
    clock: any CacheClock = SystemClock(),
    allowSharedFolder: Bool = false
  ) {
    self.init(
      path: path, capacity: capacity, fileManager: fileManager, coder: .data, hooks: .standard,
      expiration: expiration, clock: clock, allowSharedFolder: allowSharedFolder)
  }
}

extension DiskCacheLevel where Value: Codable {
  /// Creates a level that stores `Codable` values as JSON (and `Data` byte for
  /// byte) in the folder at `path`.
  ///
  /// - Parameters:
  ///   - path: the folder of the level. Defaults to a folder of this program's own,
  ///     `carlos` in a folder named after the executable in the user's cache folder
  ///     (`~/.cache/<executable>/carlos`, or under `$XDG_CACHE_HOME`), so two programs
  ///     never share values by accident. A folder the level creates is `0700` (owner
  ///     only); an existing folder keeps its mode.
  ///   - capacity: the most bytes the level's files may take together (100 MB by default).
  ///   - fileManager: creates and lists the folder.
  ///   - expiration: how long values stay valid when `set` is given no expiry
  ///     (never, by default).
  ///   - clock: where the level reads the time (the system's clock by default).
  ///   - allowSharedFolder: accept a folder that other users may write (its group
  ///     or everyone may write it, or another user owns it); refused by default, as
  ///     they could read values or plant them.
  @_disfavoredOverload
  public convenience init(
    path: String = defaultDiskCachePath(),
    capacity: UInt64 = 100 * 1024 * 1024,
    fileManager: FileManager = .default,
    expiration: ExpirationPolicy<Key, Value> = .never,
    clock: any CacheClock = SystemClock(),
    allowSharedFolder: Bool = false
  ) {
    self.init(
      path: path, capacity: capacity, fileManager: fileManager, coder: .codable, hooks: .standard,
      expiration: expiration, clock: clock, allowSharedFolder: allowSharedFolder)
  }
}

/// A read touches its file (for the recency seen by later processes) only when
/// the file's timestamp is at least this old, in nanoseconds: 10 ms. Recency
/// across restarts has about this resolution; within a process it is exact.
private let recencyTouchInterval: Int64 = 10_000_000

/// The default folder of a ``DiskCacheLevel``: `carlos` in a folder named after the
/// running executable, in the user's cache folder (`$XDG_CACHE_HOME` or `~/.cache` on
/// Linux), or in the temporary folder when there is none.
@usableFromInline
func defaultDiskCachePath() -> String {
  let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
  let base = caches ?? FileManager.default.temporaryDirectory
  return defaultDiskCachePath(in: base.path, program: ProcessInfo.processInfo.processName)
}

/// The default folder of a level of `program` inside the cache folder `base`.
func defaultDiskCachePath(in base: String, program: String) -> String {
  let folder = DiskCacheLevelFiles.folderName(forProgram: program)
  return URL(fileURLWithPath: base, isDirectory: true)
    .appendingPathComponent(folder, isDirectory: true)
    .appendingPathComponent("carlos", isDirectory: true).path
}

/// When a value read from a file was stored and when it expires, in
/// nanoseconds since 1970 (not generic, so a get builds it without metadata look-ups).
private struct DiskEntryTimes: Sendable {
  var storedAt: Int64 = 0
  var expiresAt: Int64?

  /// `value` with these times.
  func entry<Value: Sendable>(of value: Value) -> CacheEntry<Value> {
    CacheEntry(
      value: value,
      storedAt: CacheInstant(nanoseconds: storedAt).date,
      expiresAt: expiresAt.map { CacheInstant(nanoseconds: $0).date })
  }
}
