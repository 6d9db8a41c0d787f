/// Why a ``UserDefaultsCacheLevel`` operation failed.
public enum UserDefaultsCacheLevelError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The level's name cannot be a `UserDefaults` suite of its own.
  case invalidSuiteName(String)
  /// The value could not be encoded; carries the encoder's description.
  case encodingFailed(String)
  /// The suite's folder or file at `path` can be written by its group or by
  /// everyone, or another user (`owner`, a user id) owns it, so other users could
  /// read or plant values; the level was not made with `allowSharedFolder: true`.
  /// `mode` is the path's permission bits.
  case unsafeFolder(path: String, mode: UInt32, owner: UInt32)

  /// A human-readable description.
  public var description: String {
    switch self {
    case .invalidSuiteName(let name):
      return "'\(name)' cannot be used as a UserDefaults suite name"
    case .encodingFailed(let reason):
      return "the value could not be encoded: \(reason)"
    case .unsafeFolder(let path, let mode, let owner):
      return
        "refusing the UserDefaults suite at \(path): mode \(String(mode, radix: 8)), owner \(owner); "
        + "other users could read or plant values (make it yours and writable by you only, "
        + "or pass allowSharedFolder: true)"
    }
  }
}
