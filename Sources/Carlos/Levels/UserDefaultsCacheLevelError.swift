/// Why a ``UserDefaultsCacheLevel`` operation failed.
public enum UserDefaultsCacheLevelError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The level's name cannot be a `UserDefaults` suite of its own.
  case invalidSuiteName(String)
  /// The value could not be encoded; carries the encoder's description.
  case encodingFailed(String)

  public var description: String {
    switch self {
    case .invalidSuiteName(let name):
      return "'\(name)' cannot be used as a UserDefaults suite name"
    case .encodingFailed(let reason):
      return "the value could not be encoded: \(reason)"
    }
  }
}
