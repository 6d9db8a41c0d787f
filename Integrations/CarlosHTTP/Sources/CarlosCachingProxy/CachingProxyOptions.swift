import Foundation

/// The command line of `carlos-caching-proxy`:
/// `--upstream URL --port N [--host ADDRESS] [--storage memory|disk:PATH] [--capacity BYTES]`.
public struct CachingProxyOptions: Equatable, Sendable {
  /// Where the cache keeps responses.
  public enum Storage: Equatable, Sendable {
    /// In memory only.
    case memory
    /// In memory, and on disk in the folder at the path.
    case disk(String)
  }

  /// The origin every request goes to (`http` or `https`).
  public var upstream: URL
  /// The port to listen on; 0 for any free port.
  public var port: Int
  /// The address to listen on.
  public var host: String
  /// Where responses are stored.
  public var storage: Storage
  /// The most bytes of responses stored (per level).
  public var capacity: Int

  /// The usage line.
  public static let usage =
    "usage: carlos-caching-proxy --upstream URL --port N [--host ADDRESS] [--storage memory|disk:PATH] [--capacity BYTES]"

  /// Reads the arguments after the program's name; throws
  /// ``CachingProxyError/usage(_:)`` when they are wrong.
  public init(arguments: [String]) throws {
    var upstream: URL?
    var port: Int?
    var host = "127.0.0.1"
    var storage = Storage.memory
    var capacity = 256 << 20
    var remaining = arguments[...]
    while let name = remaining.popFirst() {
      guard let value = remaining.popFirst() else {
        throw CachingProxyError.usage("\(name) needs a value\n\(Self.usage)")
      }
      switch name {
      case "--upstream":
        guard let url = URL(string: value), let scheme = url.scheme?.lowercased(),
          scheme == "http" || scheme == "https", url.host != nil
        else { throw CachingProxyError.usage("--upstream must be an http(s) URL: \(value)") }
        upstream = url
      case "--port":
        guard let number = Int(value), (0...65535).contains(number) else {
          throw CachingProxyError.usage("--port must be 0...65535: \(value)")
        }
        port = number
      case "--host":
        host = value
      case "--storage":
        if value == "memory" {
          storage = .memory
        } else if value.hasPrefix("disk:"), value.count > 5 {
          storage = .disk(String(value.dropFirst(5)))
        } else {
          throw CachingProxyError.usage("--storage must be memory or disk:PATH: \(value)")
        }
      case "--capacity":
        guard let bytes = Int(value), bytes > 0 else {
          throw CachingProxyError.usage("--capacity must be a positive number of bytes: \(value)")
        }
        capacity = bytes
      default:
        throw CachingProxyError.usage("unknown option \(name)\n\(Self.usage)")
      }
    }
    guard let upstream, let port else {
      throw CachingProxyError.usage("--upstream and --port are required\n\(Self.usage)")
    }
    self.upstream = upstream
    self.port = port
    self.host = host
    self.storage = storage
    self.capacity = capacity
  }
}
