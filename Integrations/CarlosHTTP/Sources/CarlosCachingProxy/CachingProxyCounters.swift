#if HTTP
import Synchronization

/// What a ``CachingProxyServer`` has done since it started, counted from many
/// threads at once: what `--metrics-port` serves as plain text.
public final class CachingProxyCounters: Sendable {
  /// One counter.
  public enum Name: String, CaseIterable, Sendable {
    /// Requests answered (any status).
    case requests
    /// Answers served from storage without asking the origin.
    case hits
    /// Answers for which this request asked the origin.
    case misses
    /// Answers that waited for another request's origin fetch of the same URL.
    case collapsed
    /// Stored answers served because the origin failed (`stale-if-error`).
    case stale
    /// Requests the cache does not answer (other methods, requests with a body).
    case passes
    /// Requests sent to the origin (revalidations included).
    case originFetches = "origin_fetches"
    /// Origin requests that failed (no connection, timeout, broken transfer).
    case originFailures = "origin_failures"
    /// Requests refused before reaching the cache (400, 413, 414, 431).
    case refused
    /// Bytes of response bodies written to clients.
    case bytesSent = "bytes_sent"
    /// Client connections accepted.
    case connections
    /// Client connections refused because ``CachingProxyLimits/maximumConnections`` were open.
    case connectionsRefused = "connections_refused"
    /// Connections closed for a header, idle, body or send timeout.
    case timeouts
  }

  private let counts: Mutex<[Int]>
  private let open = Atomic<Int>(0)
  private let gauges: @Sendable () -> [(String, Int)]

  /// Counters at zero; `gauges` adds readings of the moment (such as the bytes
  /// stored) to ``text``.
  public init(gauges: @escaping @Sendable () -> [(String, Int)] = { [] }) {
    counts = Mutex(Array(repeating: 0, count: Name.allCases.count))
    self.gauges = gauges
  }

  /// Adds `amount` to the counter `name`.
  public func add(_ name: Name, _ amount: Int = 1) {
    let index = Self.index[name]!
    counts.withLock { $0[index] += amount }
  }

  /// The counter `name`.
  public subscript(name: Name) -> Int {
    let index = Self.index[name]!
    return counts.withLock { $0[index] }
  }

  /// The client connections open now.
  public var openConnections: Int { open.load(ordering: .relaxed) }

  /// Counts a connection opened; returns how many are open with it.
  func opened() -> Int { open.add(1, ordering: .relaxed).newValue }

  /// Counts a connection closed.
  func closed() { open.subtract(1, ordering: .relaxed) }

  /// Every counter and gauge, one `carlos_proxy_NAME VALUE` line each
  /// (counters end in `_total`), as Prometheus' text format reads them.
  public var text: String {
    var lines = Name.allCases.map { "carlos_proxy_\($0.rawValue)_total \(self[$0])" }
    lines.append("carlos_proxy_open_connections \(openConnections)")
    for (name, value) in gauges() { lines.append("carlos_proxy_\(name) \(value)") }
    return lines.joined(separator: "\n") + "\n"
  }

  private static let index = Dictionary(
    uniqueKeysWithValues: Name.allCases.enumerated().map { ($1, $0) })
}
#endif
