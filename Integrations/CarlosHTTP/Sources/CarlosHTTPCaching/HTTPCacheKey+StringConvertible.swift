#if HTTPCaching
import Carlos

extension HTTPCacheKey: StringConvertible {
  /// The key's ``description``: the name disk and other named levels store it under.
  public func toString() -> String { description }
}
#endif
