/// Why a ``DiskCacheLevel`` could not store a value.
///
/// Reads never fail with this type: a missing, corrupted or unreadable file is a
/// miss (``FetchError/valueNotInCache``), and a file whose value cannot be
/// decoded fails with ``FetchError/invalidCachedData``.
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
    }
  }
}
