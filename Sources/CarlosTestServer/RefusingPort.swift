import Foundation

/// A port on 127.0.0.1 that is reserved but refuses every connection, for
/// testing what a client does when nothing listens.
///
/// The port stays reserved (so no other server can take it) until ``close()``
/// is called or the value is released.
public final class RefusingPort: Sendable {
  /// The reserved port.
  public let port: UInt16
  private let descriptor: Int32

  /// Reserves a free port on 127.0.0.1 without listening on it.
  ///
  /// - Throws: ``TestServerError`` when the socket cannot be opened.
  public init() throws(TestServerError) {
    (descriptor, port) = try Socket.bindLoopback()
  }

  deinit {
    Socket.close(descriptor)
  }

  /// The URL of `path` on the refusing port.
  public func url(_ path: String) -> URL {
    let suffix = path.hasPrefix("/") ? path : "/" + path
    return URL(string: "http://127.0.0.1:\(port)\(suffix)") ?? URL(fileURLWithPath: "/")
  }
}
