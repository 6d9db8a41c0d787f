/// Why a ``MemoryCacheLevel`` refused a value.
public enum MemoryCacheLevelError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The value costs more than the level's whole capacity, so it was not stored
  /// (and any older value for its key was removed).
  case valueTooLarge(cost: Int, capacity: Int)

  /// What went wrong, in words.
  public var description: String {
    switch self {
    case .valueTooLarge(let cost, let capacity):
      return "the value's cost (\(cost)) exceeds the memory cache's capacity (\(capacity))"
    }
  }
}
