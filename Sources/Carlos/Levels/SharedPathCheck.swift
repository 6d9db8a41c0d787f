#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether other users could read or plant values through a path a persistent
/// level keeps its data in.
enum SharedPathCheck {
  /// The permission bits and owner of `path` when its group or everyone may write
  /// it, or another user owns it; `nil` when it is safe, or missing.
  static func unsafe(_ path: String) -> (mode: UInt32, owner: UInt32)? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    let mode = UInt32(status.st_mode) & 0o7777
    let writableByOthers = mode & UInt32(S_IWGRP | S_IWOTH) != 0
    guard writableByOthers || status.st_uid != geteuid() else { return nil }
    return (mode, UInt32(status.st_uid))
  }
}
