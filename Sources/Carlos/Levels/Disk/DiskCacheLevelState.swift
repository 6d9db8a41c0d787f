/// What a ``DiskCacheLevel`` keeps in memory, behind its lock: the index of its
/// files, the writes and clears it was asked for that have not finished yet,
/// counters that let a read tell whether the index changed while it read, and
/// the file names of recently used keys (naming a key takes a SHA-256).
///
/// Not generic (values of pending writes are kept as `any Sendable`), so that
/// using it from the generic level needs no generic metadata lookup.
struct DiskCacheLevelState: Sendable {
  /// A `set` whose file is not written yet, or a `remove` whose file is not gone
  /// yet: gets of its key answer with its value, or miss.
  struct PendingWrite: Sendable {
    /// Tells this `set` apart from later ones of the same file.
    var generation: UInt64
    /// The full key, to tell keys whose digests collide apart.
    var key: [UInt8]
    /// The value being written (a `Value` of the level), or `nil` for a removal.
    var value: (any Sendable)?
    /// When the value was stored, in nanoseconds since 1970.
    var storedAt: Int64 = 0
    /// When the value expires, in nanoseconds since 1970; nil when it never does.
    var expiresAt: Int64?
  }

  /// The file of a key.
  struct File: Sendable {
    /// The file's name in the level's folder.
    var name: String
    /// The file's full path.
    var path: String
  }

  /// Where a get finds its answer.
  enum Lookup: Sendable {
    /// The key's file name is not remembered: name it, then look again.
    case unnamed
    /// In the file; `stamp` is the state of the index when the read started.
    case disk(File, stamp: Stamp)
    /// In a pending write of the same key (the value, when it was stored and when it expires).
    case pending(any Sendable, storedAt: Int64, expiresAt: Int64?)
    /// Nowhere: a pending clear or a pending write of another key hides the file.
    case miss
  }

  /// How far the index had changed at some moment.
  struct Stamp: Sendable {
    var changes: UInt64
    var removals: UInt64
  }

  var index = DiskCacheIndex()
  /// When the indexed files that expire do so.
  var deadlines = DiskCacheDeadlines()
  var directoryReady = false
  /// Temporary files written so far, to name the next one.
  var writeCount: UInt64 = 0
  /// `set`s asked for so far, to number their pending writes.
  var setCount: UInt64 = 0
  /// Pending writes by file name, oldest first (usually one per file).
  var pendingWrites: [String: [PendingWrite]] = [:]
  /// Clears asked for that have not finished yet.
  var pendingClears = 0
  /// The files of recently used keys, by the keys' UTF-8 bytes.
  private var files: [[UInt8]: File] = [:]
  /// Counts every change of the index made by writes, removals and clears.
  private var changes: UInt64 = 0
  /// Counts the removals of files from the index (evictions, removals of bad files, clears).
  private var removals: UInt64 = 0

  /// Where a get of `key` finds its answer now.
  func lookUp(_ key: [UInt8]) -> Lookup {
    guard let file = files[key] else { return .unnamed }
    return lookUp(key, in: file)
  }

  /// Where a get of `key`, whose file is `file`, finds its answer now.
  func lookUp(_ key: [UInt8], in file: File) -> Lookup {
    if pendingWrites.isEmpty, pendingClears == 0 {
      return .disk(file, stamp: Stamp(changes: changes, removals: removals))
    }
    if let pending = pendingWrites[file.name]?.last {
      guard pending.key == key, let value = pending.value else { return .miss }
      return .pending(value, storedAt: pending.storedAt, expiresAt: pending.expiresAt)
    }
    return pendingClears > 0
      ? .miss : .disk(file, stamp: Stamp(changes: changes, removals: removals))
  }

  /// The file of `key` when it is remembered.
  func file(of key: [UInt8]) -> File? {
    files[key]
  }

  /// Remembers that `file` is the file of `key` (short keys only; the oldest
  /// names are forgotten, all at once, when there are too many).
  mutating func remember(_ file: File, of key: [UInt8]) {
    guard key.count <= rememberedKeyBytes else { return }
    if files.count >= rememberedFiles { files.removeAll(keepingCapacity: true) }
    files[key] = file
  }

  /// Forgets the remembered file names.
  mutating func forgetFileNames() {
    files.removeAll()
  }

  /// Registers a pending write of `value` to the file `name` (`nil`: its removal),
  /// stored at `storedAt` and expiring at `expiresAt`; returns its generation.
  mutating func beginWrite(
    _ name: String, key: [UInt8], value: (any Sendable)?, storedAt: Int64 = 0,
    expiresAt: Int64? = nil
  ) -> UInt64 {
    setCount += 1
    pendingWrites[name, default: []].append(
      PendingWrite(
        generation: setCount, key: key, value: value, storedAt: storedAt, expiresAt: expiresAt))
    return setCount
  }

  /// Forgets the pending write `generation` of the file `name` (written,
  /// failed or cancelled); the other writes of the file stay pending. Does
  /// nothing when a clear forgot it already.
  mutating func endWrite(_ name: String, generation: UInt64) {
    pendingWrites[name]?.removeAll { $0.generation == generation }
    if pendingWrites[name]?.isEmpty == true {
      pendingWrites[name] = nil
    }
  }

  /// Records that a write stored `size` bytes in the file `name`, expiring at
  /// `expiresAt` (nil: never).
  mutating func recordWrite(_ name: String, size: UInt64, expiresAt: Int64? = nil) {
    changes += 1
    index.touch(name, size: size)
    deadlines.set(name, expiresAt: expiresAt)
  }

  /// Forgets the file `name`.
  mutating func recordRemoval(_ name: String) {
    changes += 1
    removals += 1
    index.remove(name)
    deadlines.remove(name)
  }

  /// Forgets every file; pending writes and clears are the caller's business.
  mutating func recordClear() {
    changes += 1
    removals += 1
    index.removeAll()
    deadlines.removeAll()
  }

  /// Records that a get read `size` bytes from the file `name`, the index being
  /// as `stamp` says when the read started. When writes or removals ran
  /// meanwhile, the file read may be gone or replaced: a known file only
  /// becomes the most recent (its size stays what the writer recorded), and an
  /// unknown one joins the index only when nothing was removed meanwhile.
  /// The file's expiry (`expiresAt`, nil: never) is recorded under the same rules as its size.
  mutating func recordRead(
    _ name: String, size: UInt64, expiresAt: Int64? = nil, since stamp: Stamp
  ) {
    if stamp.changes == changes {
      index.touch(name, size: size)
      deadlines.set(name, expiresAt: expiresAt)
    } else if let known = index.size(of: name) {
      index.touch(name, size: known)
    } else if stamp.removals == removals {
      index.touch(name, size: size)
      deadlines.set(name, expiresAt: expiresAt)
    }
  }
}

/// The most file names a level remembers.
private let rememberedFiles = 2_048
/// The longest key, in UTF-8 bytes, whose file name a level remembers.
private let rememberedKeyBytes = 256
