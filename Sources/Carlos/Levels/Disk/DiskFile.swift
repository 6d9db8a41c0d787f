#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX calls a ``DiskCacheLevel`` makes, with their errors as errno values.
///
/// Reading costs open, fstat, read and close; writing costs open, writev, close
/// and rename. Nothing here calls fsync (see ``DiskCacheLevel`` for the trade-off).
enum DiskFile {
  /// What identifies a file on disk, to tell whether a path still names the same file.
  struct Identity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
  }

  /// What `lstat` says about a path.
  struct Info: Sendable {
    var identity: Identity
    var size: UInt64
    var isRegularFile: Bool
    /// Modification time in nanoseconds since 1970.
    var modified: Int64
  }

  /// A whole file read into memory, still open so it can be touched.
  struct Contents: ~Copyable {
    let descriptor: Int32
    let identity: Identity
    /// Modification time in nanoseconds since 1970, when the file was opened.
    let modified: Int64
    /// The file's bytes; owned by this value until ``takeBytes()`` or deinit.
    private(set) var bytes: UnsafeMutableRawBufferPointer?

    init(
      descriptor: Int32, identity: Identity, modified: Int64, bytes: UnsafeMutableRawBufferPointer
    ) {
      self.descriptor = descriptor
      self.identity = identity
      self.modified = modified
      self.bytes = bytes
    }

    /// The file's bytes, read-only.
    var view: UnsafeRawBufferPointer {
      bytes.map { UnsafeRawBufferPointer($0) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
    }

    /// Sets the file's access and modification times to now, the mark of a
    /// recent use, unless they are less than `interval` nanoseconds old (like
    /// `relatime`, this spares a metadata write per read of a hot file).
    func touch(unlessNewerThan interval: Int64) {
      if DiskFile.now() - modified >= interval {
        _ = futimens(descriptor, nil)
      }
    }

    /// Hands the bytes over to the caller, who must deallocate them.
    mutating func takeBytes() -> UnsafeMutableRawBufferPointer? {
      defer { bytes = nil }
      return bytes
    }

    deinit {
      bytes?.deallocate()
      _ = close(descriptor)
    }
  }

  /// Why a read found nothing.
  enum ReadFailure: Error {
    /// There is no file at the path.
    case missing
    /// Something is at the path but could not be read (errno).
    case unreadable(Int32)
    /// What is at the path cannot be a cache file (not a regular file, or not
    /// the size it must be); it was not read. `identity` names it for removal.
    case rejected(reason: String, identity: Identity?)
  }

  /// What a read accepts: the largest file, and how to tell from a file's first
  /// bytes the size it must have.
  struct ReadLimits {
    /// Larger files are rejected before anything is read.
    var maximumSize: UInt64
    /// How many leading bytes ``declaredSize`` needs.
    var headerSize: Int
    /// The size the leading bytes say the file has; nil when they cannot say.
    var declaredSize: (UnsafeRawBufferPointer) -> UInt64?
  }

  /// Files up to this size are read in one go; larger ones have their declared
  /// size checked after the first bytes, before the rest is read.
  static let checkedReadThreshold = 64 * 1024

  /// Reads the whole regular file at `path`, within `limits`.
  ///
  /// Never follows a symbolic link and never blocks on a FIFO or device: what is
  /// not a regular file is rejected without being read, and so is a file larger
  /// than the limit or than its first bytes declare.
  static func read(_ path: String, limits: ReadLimits) -> Result<Contents, ReadFailure> {
    let descriptor = path.withCString {
      open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    }
    guard descriptor >= 0 else {
      let code = errno
      if code == ENOENT || code == ENOTDIR { return .failure(.missing) }
      if code == ELOOP {
        return .failure(.rejected(reason: "a symbolic link", identity: info(path)?.identity))
      }
      return .failure(.unreadable(code))
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let code = errno
      _ = close(descriptor)
      return .failure(.unreadable(code))
    }
    let identity = Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    guard (status.st_mode & S_IFMT) == S_IFREG, status.st_size >= 0 else {
      _ = close(descriptor)
      return .failure(.rejected(reason: "not a regular file", identity: identity))
    }
    guard UInt64(status.st_size) <= limits.maximumSize else {
      _ = close(descriptor)
      return .failure(
        .rejected(
          reason: "\(status.st_size) bytes, more than the capacity", identity: identity))
    }
    let size = Int(status.st_size)
    let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: 16)
    var done = 0
    if size > checkedReadThreshold, size >= limits.headerSize {
      // Read the header first: a file longer than it says is rejected unread.
      if let code = readFully(descriptor, bytes, from: &done, to: limits.headerSize) {
        bytes.deallocate()
        _ = close(descriptor)
        return .failure(.unreadable(code))
      }
      let header = UnsafeRawBufferPointer(rebasing: bytes[0..<done])
      if done == limits.headerSize, let declared = limits.declaredSize(header),
        declared != UInt64(size)
      {
        bytes.deallocate()
        _ = close(descriptor)
        return .failure(
          .rejected(
            reason: "\(size) bytes where its header says \(declared)", identity: identity))
      }
    }
    if let code = readFully(descriptor, bytes, from: &done, to: size) {
      bytes.deallocate()
      _ = close(descriptor)
      return .failure(.unreadable(code))
    }
    let contents = UnsafeMutableRawBufferPointer(rebasing: bytes[0..<done])
    return .success(
      Contents(
        descriptor: descriptor, identity: identity, modified: modificationTime(status),
        bytes: contents))
  }

  /// Reads into `bytes` from offset `done` up to `end`, or to the end of the
  /// file if it comes first (a file that shrank is checked like any other
  /// content); returns errno on failure.
  private static func readFully(
    _ descriptor: Int32, _ bytes: UnsafeMutableRawBufferPointer, from done: inout Int, to end: Int
  ) -> Int32? {
    while done < end, let base = bytes.baseAddress {
      let result = systemRead(descriptor, base + done, end - done)
      if result > 0 {
        done += result
      } else if result == 0 {
        break
      } else if errno != EINTR {
        return errno
      }
    }
    return nil
  }

  /// Writes `prefix` followed by `body` to a new file at `temporaryPath`, then
  /// renames it to `path`, replacing what was there in one step. On failure
  /// the temporary file is removed and the errno returned with the path it concerns.
  static func writeAtomically(
    prefix: [UInt8],
    body: UnsafeRawBufferPointer,
    temporaryPath: String,
    path: String
  ) -> (path: String, errno: Int32)? {
    let descriptor = temporaryPath.withCString {
      open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, DiskCacheLevelFiles.fileMode)
    }
    guard descriptor >= 0 else { return (temporaryPath, errno) }
    let writeError: Int32? = prefix.withUnsafeBytes { head in
      writeAll(descriptor, head, body)
    }
    let closeError: Int32? = close(descriptor) == 0 ? nil : errno
    if let code = writeError ?? closeError {
      removeItem(temporaryPath)
      return (temporaryPath, code)
    }
    let renamed = temporaryPath.withCString { from in path.withCString { to in rename(from, to) } }
    guard renamed == 0 else {
      let code = errno
      removeItem(temporaryPath)
      return (path, code)
    }
    return nil
  }

  /// Writes both buffers completely, retrying partial writes; returns errno on failure.
  private static func writeAll(
    _ descriptor: Int32,
    _ first: UnsafeRawBufferPointer,
    _ second: UnsafeRawBufferPointer
  ) -> Int32? {
    var firstDone = 0
    var secondDone = 0
    while firstDone < first.count || secondDone < second.count {
      var vectors = [iovec](repeating: iovec(), count: 2)
      var count: Int32 = 0
      if firstDone < first.count, let base = first.baseAddress {
        vectors[Int(count)] = iovec(
          iov_base: UnsafeMutableRawPointer(mutating: base + firstDone),
          iov_len: first.count - firstDone
        )
        count += 1
      }
      if secondDone < second.count, let base = second.baseAddress {
        vectors[Int(count)] = iovec(
          iov_base: UnsafeMutableRawPointer(mutating: base + secondDone),
          iov_len: second.count - secondDone
        )
        count += 1
      }
      let written = writev(descriptor, vectors, count)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      if written == 0 { return EIO }
      let intoFirst = min(written, first.count - firstDone)
      firstDone += intoFirst
      secondDone += written - intoFirst
    }
    return nil
  }

  /// What `lstat` says about `path`, or nil when nothing is there.
  static func info(_ path: String) -> Info? {
    var status = stat()
    guard path.withCString({ lstat($0, &status) }) == 0 else { return nil }
    let modified = modificationTime(status)
    return Info(
      identity: Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)),
      size: UInt64(max(0, status.st_size)),
      isRegularFile: (status.st_mode & S_IFMT) == S_IFREG,
      modified: modified
    )
  }

  /// The modification time in `status`, in nanoseconds since 1970.
  private static func modificationTime(_ status: stat) -> Int64 {
    #if canImport(Darwin)
    Int64(status.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(status.st_mtimespec.tv_nsec)
    #else
    Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
    #endif
  }

  /// The wall-clock time in nanoseconds since 1970, as file timestamps count it.
  static func now() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }

  /// Removes the file at `path`; returns whether it is gone.
  @discardableResult
  static func removeItem(_ path: String) -> Bool {
    path.withCString { unlink($0) } == 0 || errno == ENOENT
  }

  /// Whether a process with this id is running (or might be: only a definite
  /// "no such process" says no).
  static func processExists(_ id: Int32) -> Bool {
    kill(id, 0) == 0 || errno != ESRCH
  }

  /// The id of this process.
  static var currentProcess: Int32 { getpid() }

  /// Whether a read that failed with `code` may well succeed later: the process or
  /// the system ran short of descriptors or memory, or the call was interrupted. The
  /// file itself is not at fault, so it is kept.
  static func isTransient(_ code: Int32) -> Bool {
    [EMFILE, ENFILE, ENOMEM, ENOBUFS, EINTR, EAGAIN, EWOULDBLOCK].contains(code)
  }

  /// The system's message for `code`.
  static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}

/// `read(2)`, named apart from ``DiskFile/read(_:limits:)``.
@inline(__always)
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int
{
  read(descriptor, buffer, count)
}
