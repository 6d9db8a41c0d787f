/// Why a ``TestServer`` could not start.
public enum TestServerError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A socket call failed; carries the call's name and `errno`.
  case socketCallFailed(call: String, errno: Int32)

  public var description: String {
    switch self {
    case .socketCallFailed(let call, let errno):
      return "\(call) failed with errno \(errno)"
    }
  }
}
