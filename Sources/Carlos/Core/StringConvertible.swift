import Foundation

/// A key that can be written as a string, for levels that store by name (disk, user defaults).
public protocol StringConvertible {
  /// The string that identifies this key.
  func toString() -> String
}

extension String: StringConvertible {
  /// The string itself.
  public func toString() -> String { self }
}

extension URL: StringConvertible {
  /// The absolute string of the URL.
  public func toString() -> String { absoluteString }
}
