#if HTTP
/// Why a ``CachingProxyServer`` or its command could not start.
public enum CachingProxyError: Error, Equatable, CustomStringConvertible {
  /// The listening socket has no port.
  case noPort
  /// The command line is wrong; the message says how.
  case usage(String)

  /// A sentence for the user.
  public var description: String {
    switch self {
    case .noPort: return "the listening socket has no port"
    case .usage(let message): return message
    }
  }
}
#endif
