/// Why a ``DiskCacheLevel`` could not store a value, or refuses its folder.
///
/// Reads fail with this type only when the folder is refused
/// (``unsafeFolder(path:mode:owner:)``): otherwise a missing, corrupted or
/// unreadable file is a miss (``FetchError/valueNotInCache``), and a file whose
/// value cannot be decoded fails with ``FetchError/invalidCachedData``.
public enum DiskCacheLevelError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The level's folder does not exist and could not be created (for example
  /// because a file is in the way, or a parent folder is read-only).
  case couldNotCreateDirectory(path: String, reason: String)
  /// The disk refused the write: the folder is read-only, the disk is full, a
  /// quota was hit… `errno` is the system's error number for the failing call.
  case writeFailed(path: String, errno: Int32, reason: String)
  /// The value could not be encoded for storage.
  case valueEncodingFailed(reason: String)
  /// The encoded value (with its key and header) is bigger than the whole
  /// capacity of the level, so it can never be stored.
  case valueTooLarge(size: UInt64, capacity: UInt64)
  /// The folder can be written by other users (its group or everyone may write
  /// it, or another user owns it), so they could read values or plant them: every
  /// operation of the level fails with this, unless it was made with
  /// `allowSharedFolder: true`. `mode` is the folder's permission bits, `owner`
  /// its owner's user id.
  case unsafeFolder(path: String, mode: UInt32, owner: UInt32)

  /// A human-readable description.
  public var description: String {
    switch self {
    case .couldNotCreateDirectory(let path, let reason):
      return "could not create the disk cache folder \(path): \(reason)"
    case .writeFailed(let path, let errno, let reason):
      return "could not write \(path): \(reason) (errno \(errno))"
    case .valueEncodingFailed(let reason):
      return "could not encode the value for the disk cache: \(reason)"
    case .valueTooLarge(let size, let capacity):
      return "the value needs \(size) bytes but the disk cache holds at most \(capacity)"
    case .unsafeFolder(let path, let mode, let owner):
      return
        "refusing the disk cache folder \(path): mode \(String(mode, radix: 8)), owner \(owner); "
        + "other users could read or plant values (make it 0700 and yours, or pass allowSharedFolder: true)"
    }
  }
}
