#if HTTP
import Foundation

/// The command line of `carlos-caching-proxy` (``help`` lists every option).
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
  /// The most bytes of responses stored (per level), keys, header fields and
  /// per-entry overhead included.
  public var capacity: Int
  /// The largest response the proxy takes from the origin, in bytes; a larger
  /// one is a 502.
  public var maximumObjectSize: Int
  /// The timeouts and limits clients are held to.
  public var limits: CachingProxyLimits
  /// How long connecting to the upstream may take.
  public var upstreamConnectTimeout: Duration
  /// How long an upstream response may send nothing before it is a 504.
  public var upstreamTimeout: Duration
  /// The most connections open to the upstream at once.
  public var upstreamConnections: Int
  /// Whether responses with `Set-Cookie` are stored (and so served, cookie
  /// included, to other clients); off by default.
  public var storesResponsesWithSetCookie: Bool
  /// Whether one line per request goes to standard output.
  public var accessLog: Bool
  /// The port of the plain-text counters (`GET /metrics`), if any.
  public var metricsPort: Int?

  /// The usage line.
  public static let usage =
    "usage: carlos-caching-proxy --upstream URL --port N [options]; --help lists them"

  /// What `--help` prints.
  public static var help: String {
    let defaults = CachingProxyLimits()
    return """
      carlos-caching-proxy: a caching reverse proxy (RFC 9111, shared cache) in front of one origin.
      Prints "listening PORT" first; SIGTERM stops accepting, lets responses in flight finish
      (up to \(seconds(defaults.drainTimeout)) s) and exits.

        --upstream URL               the origin (http or https), required
        --port N                     the port to listen on (0: any free port), required
        --host ADDRESS               the address to listen on (default 127.0.0.1)
        --storage memory|disk:PATH   where responses are stored (default memory)
        --capacity BYTES             the most bytes stored per level, keys and headers counted (default 256 MiB)
        --max-object-size BYTES      the largest response taken from the origin; larger is a 502 (default 64 MiB)
        --max-request-body BYTES     the largest request body; larger is a 413 (default \(defaults.maximumRequestBodySize))
        --header-timeout SECONDS     time to send a request's head (default \(seconds(defaults.headerTimeout)))
        --idle-timeout SECONDS       keep-alive time between requests (default \(seconds(defaults.idleTimeout)))
        --body-timeout SECONDS       pause allowed between parts of a request body (default \(seconds(defaults.bodyTimeout)))
        --send-timeout SECONDS       time a client may leave a response unread (default \(seconds(defaults.sendTimeout)))
        --max-connections N          client connections open at once; more get a 503 (default \(defaults.maximumConnections): half the open-file limit)
        --max-header-bytes BYTES     request header bytes; more is a 431 (default \(defaults.maximumHeaderBytes))
        --max-header-count N         request header fields; more is a 431 (default \(defaults.maximumHeaderCount))
        --max-target-length BYTES    request target length; longer is a 414 (default \(defaults.maximumTargetLength))
        --upstream-connect-timeout SECONDS   time to connect to the origin (default 5)
        --upstream-timeout SECONDS   time an origin response may send nothing; then a 504 (default 30)
        --upstream-connections N     connections open to the origin at once (default 256)
        --store-set-cookie           store responses with Set-Cookie, cookie included, as RFC 9111 allows
                                     (off: a shared cache would hand one client's cookie to others)
        --access-log                 one line per request on standard output:
                                     time method target status bytes hit|miss|collapsed|stale|pass|refused duration
        --metrics-port N             plain-text counters at GET /metrics on 127.0.0.1:N
        --help                       this text
      """
  }

  /// Reads the arguments after the program's name; throws
  /// ``CachingProxyError/usage(_:)`` when they are wrong.
  public init(arguments: [String]) throws {
    var upstream: URL?
    var port: Int?
    host = "127.0.0.1"
    storage = .memory
    capacity = 256 << 20
    maximumObjectSize = 64 << 20
    limits = CachingProxyLimits()
    upstreamConnectTimeout = .seconds(5)
    upstreamTimeout = .seconds(30)
    upstreamConnections = 256
    accessLog = false
    storesResponsesWithSetCookie = false
    metricsPort = nil
    var remaining = arguments[...]
    while let name = remaining.popFirst() {
      if name == "--access-log" || name == "--store-set-cookie" {
        if name == "--access-log" { accessLog = true } else { storesResponsesWithSetCookie = true }
        continue
      }
      guard let value = remaining.popFirst() else {
        throw CachingProxyError.usage("\(name) needs a value\n\(Self.usage)")
      }
      switch name {
      case "--upstream":
        guard let url = URL(string: value), let scheme = url.scheme?.lowercased(),
          scheme == "http" || scheme == "https", url.host != nil
        else { throw CachingProxyError.usage("--upstream must be an http(s) URL: \(value)") }
        upstream = url
      case "--port": port = try Self.number(name, value, in: 0...65535)
      case "--metrics-port": metricsPort = try Self.number(name, value, in: 0...65535)
      case "--host": host = value
      case "--storage":
        if value == "memory" {
          storage = .memory
        } else if value.hasPrefix("disk:"), value.count > 5 {
          storage = .disk(String(value.dropFirst(5)))
        } else {
          throw CachingProxyError.usage("--storage must be memory or disk:PATH: \(value)")
        }
      case "--capacity": capacity = try Self.number(name, value)
      case "--max-object-size": maximumObjectSize = try Self.number(name, value)
      case "--max-request-body": limits.maximumRequestBodySize = try Self.number(name, value)
      case "--max-connections": limits.maximumConnections = try Self.number(name, value)
      case "--max-header-bytes": limits.maximumHeaderBytes = try Self.number(name, value)
      case "--max-header-count": limits.maximumHeaderCount = try Self.number(name, value)
      case "--max-target-length": limits.maximumTargetLength = try Self.number(name, value)
      case "--upstream-connections": upstreamConnections = try Self.number(name, value)
      case "--header-timeout": limits.headerTimeout = try Self.duration(name, value)
      case "--idle-timeout": limits.idleTimeout = try Self.duration(name, value)
      case "--body-timeout": limits.bodyTimeout = try Self.duration(name, value)
      case "--send-timeout": limits.sendTimeout = try Self.duration(name, value)
      case "--upstream-connect-timeout": upstreamConnectTimeout = try Self.duration(name, value)
      case "--upstream-timeout": upstreamTimeout = try Self.duration(name, value)
      default:
        throw CachingProxyError.usage("unknown option \(name)\n\(Self.usage)")
      }
    }
    guard let upstream, let port else {
      throw CachingProxyError.usage("--upstream and --port are required\n\(Self.usage)")
    }
    self.upstream = upstream
    self.port = port
  }

  /// A whole number in `range` (by default positive).
  private static func number(
    _ name: String, _ value: String, in range: ClosedRange<Int> = 1...Int.max
  )
    throws -> Int
  {
    guard let number = Int(value), range.contains(number) else {
      throw CachingProxyError.usage(
        "\(name) must be a whole number in \(range.lowerBound)...\(range.upperBound): \(value)")
    }
    return number
  }

  /// A positive number of seconds (fractions allowed).
  private static func duration(_ name: String, _ value: String) throws -> Duration {
    guard let seconds = Double(value), seconds > 0, seconds <= 86_400 else {
      throw CachingProxyError.usage("\(name) must be a number of seconds in (0, 86400]: \(value)")
    }
    return .milliseconds(Int((seconds * 1000).rounded()))
  }

  private static func seconds(_ duration: Duration) -> Int { Int(duration.components.seconds) }
}
#endif
