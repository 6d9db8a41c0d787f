#if HTTPCaching
import Carlos

extension HTTPRequestKey: StringConvertible {
  /// The key's ``canonicalString``: the name disk and other named levels store it under.
  public func toString() -> String { canonicalString }
}
#endif
