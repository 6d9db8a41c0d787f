#if HTTPCaching
/// One header field of an HTTP request or response: a name and its value.
///
/// Names compare as written; ``HTTPHeaderFields`` looks them up without regard to case.
public struct HTTPHeader: Hashable, Codable, Sendable {
  /// The field name, such as `Cache-Control`.
  public var name: String
  /// The field value, without the leading and trailing whitespace.
  public var value: String

  /// Creates a header field.
  public init(name: String, value: String) {
    self.name = name
    self.value = value
  }
}
#endif
