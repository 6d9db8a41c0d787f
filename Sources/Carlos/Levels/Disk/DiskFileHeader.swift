#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension DiskFile {
  /// The first bytes of a regular file, with what identifies the file and its size.
  struct Head: Sendable {
    /// The bytes read, at most the count asked for.
    var bytes: [UInt8]
    /// The file's size when it was read.
    var size: UInt64
    /// The file read, to tell whether its path still names it later.
    var identity: Identity
  }

  /// Reads at most `count` bytes from the start of the regular file at `path`
  /// (and asks for no more memory than the file holds, however large `count` is);
  /// nil when there is no regular file there or it cannot be read. Never waits
  /// on a FIFO or device, and does not follow a symbolic link.
  static func readHead(_ path: String, count: Int) -> Head? {
    let descriptor = path.withCString {
      open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
    }
    guard descriptor >= 0 else { return nil }
    defer { _ = close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
      status.st_size >= 0
    else {
      return nil
    }
    // No more than the file holds: `count` may come from a header planted in the folder.
    let wanted = min(count, Int(clamping: status.st_size))
    var bytes = [UInt8](repeating: 0, count: wanted)
    var done = 0
    while done < wanted {
      let result = bytes.withUnsafeMutableBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return pread(descriptor, base + done, wanted - done, off_t(done))
      }
      if result > 0 {
        done += result
      } else if result == 0 {
        break
      } else if errno != EINTR {
        return nil
      }
    }
    bytes.removeSubrange(done...)
    return Head(
      bytes: bytes,
      size: UInt64(status.st_size),
      identity: Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)))
  }
}
