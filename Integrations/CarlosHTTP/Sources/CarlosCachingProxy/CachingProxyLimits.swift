#if HTTP
import Foundation

/// The timeouts and limits a ``CachingProxyServer`` holds its clients to, with
/// defaults like nginx's: a client that is too slow, too idle or too large is
/// closed or refused, and never costs other clients their answers or the
/// process its memory.
public struct CachingProxyLimits: Equatable, Sendable {
  /// How long a client may take to send a request's head, from the moment the
  /// connection opens (nginx's `client_header_timeout`: 60 s).
  public var headerTimeout: Duration
  /// How long a connection may wait for its next request once a response has
  /// been sent (nginx's `keepalive_timeout`: 75 s).
  public var idleTimeout: Duration
  /// How long a client may pause between two parts of a request body (nginx's
  /// `client_body_timeout`: 60 s).
  public var bodyTimeout: Duration
  /// How long a client may leave a response unread while the proxy has bytes
  /// to send it (nginx's `send_timeout`: 60 s); a streamed or large body is
  /// written in windows of 256 KiB, and the client has this long to take each.
  public var sendTimeout: Duration
  /// The most client connections open at once; a connection above it gets a 503
  /// and is closed at once.
  public var maximumConnections: Int
  /// The longest request target, in bytes; a longer one gets a 414 (nginx: 8 KiB).
  public var maximumTargetLength: Int
  /// The most bytes of request header fields (names and values); more gets a 431
  /// (nginx: 32 KiB in all).
  public var maximumHeaderBytes: Int
  /// The most request header fields; more gets a 431 (Apache's `LimitRequestFields`: 100).
  public var maximumHeaderCount: Int
  /// The largest request body, in bytes; a larger one gets a 413.
  public var maximumRequestBodySize: Int
  /// How long a SIGTERM waits for the responses in flight before the process ends.
  public var drainTimeout: Duration

  /// The defaults.
  public init(
    headerTimeout: Duration = .seconds(60),
    idleTimeout: Duration = .seconds(75),
    bodyTimeout: Duration = .seconds(60),
    sendTimeout: Duration = .seconds(60),
    maximumConnections: Int = CachingProxyLimits.defaultMaximumConnections,
    maximumTargetLength: Int = 8 << 10,
    maximumHeaderBytes: Int = 32 << 10,
    maximumHeaderCount: Int = 100,
    maximumRequestBodySize: Int = 16 << 20,
    drainTimeout: Duration = .seconds(30)
  ) {
    self.headerTimeout = headerTimeout
    self.idleTimeout = idleTimeout
    self.bodyTimeout = bodyTimeout
    self.sendTimeout = sendTimeout
    self.maximumConnections = maximumConnections
    self.maximumTargetLength = maximumTargetLength
    self.maximumHeaderBytes = maximumHeaderBytes
    self.maximumHeaderCount = maximumHeaderCount
    self.maximumRequestBodySize = maximumRequestBodySize
    self.drainTimeout = drainTimeout
  }

  /// Half the process's limit on open files, at most 16,384 and at least 64: the
  /// other half is left for upstream connections and files, so the process never
  /// runs out of descriptors (where new clients would wait unanswered).
  public static var defaultMaximumConnections: Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 512 }
    let files = Int(clamping: limit.rlim_cur)
    return min(max(files / 2, 64), 16_384)
  }
}
#endif
