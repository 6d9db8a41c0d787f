#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin wrappers around the POSIX socket calls the test server needs.
enum Socket {
  /// What waiting on a connection found.
  enum Readiness {
    /// Nothing happened before the timeout.
    case idle
    /// The peer sent bytes (they are still unread).
    case readable
    /// The peer closed the connection or it failed.
    case closed
  }

  /// Opens a TCP socket listening on 127.0.0.1 on a port the system picks, and
  /// returns it with that port.
  static func listenOnLoopback() throws(TestServerError) -> (descriptor: Int32, port: UInt16) {
    let (descriptor, port) = try bindLoopback()
    guard listen(descriptor, 128) == 0 else {
      let code = errno
      close(descriptor)
      throw .socketCallFailed(call: "listen", errno: code)
    }
    return (descriptor, port)
  }

  /// Opens a TCP socket bound to 127.0.0.1 on a port the system picks (not
  /// listening yet), and returns it with that port.
  static func bindLoopback() throws(TestServerError) -> (descriptor: Int32, port: UInt16) {
    #if canImport(Darwin)
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #else
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    guard descriptor >= 0 else { throw .socketCallFailed(call: "socket", errno: errno) }
    var address = sockaddr_in()
    #if canImport(Darwin)
    address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
    let length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0 else {
      let code = errno
      close(descriptor)
      throw .socketCallFailed(call: "bind", errno: code)
    }
    var actual = sockaddr_in()
    var actualLength = length
    let named = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(descriptor, $0, &actualLength)
      }
    }
    guard named == 0 else {
      let code = errno
      close(descriptor)
      throw .socketCallFailed(call: "getsockname", errno: code)
    }
    return (descriptor, UInt16(bigEndian: actual.sin_port))
  }

  /// Waits up to `milliseconds` for `descriptor` to become readable (or closed).
  static func waitReadable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, milliseconds) > 0
  }

  /// Accepts a pending connection, or returns `nil` when none is waiting.
  static func accept(_ listener: Int32) -> Int32? {
    #if canImport(Darwin)
    let connection = Darwin.accept(listener, nil, nil)
    #else
    let connection = Glibc.accept(listener, nil, nil)
    #endif
    guard connection >= 0 else { return nil }
    #if canImport(Darwin)
    var on: Int32 = 1
    setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    #endif
    return connection
  }

  /// Waits up to `milliseconds` and tells whether the peer sent bytes or closed.
  static func readiness(_ descriptor: Int32, milliseconds: Int32) -> Readiness {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let ready = poll(&entry, 1, milliseconds)
    if ready == 0 { return .idle }
    if ready < 0 { return errno == EINTR ? .idle : .closed }
    var byte: UInt8 = 0
    let peeked = recv(descriptor, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
    if peeked > 0 { return .readable }
    if peeked < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return .idle }
    return .closed
  }

  /// Reads what is available (at most `limit` bytes); `nil` when the peer closed or the read failed.
  static func receive(_ descriptor: Int32, limit: Int = 4096) -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: limit)
    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, limit, 0) }
    guard count > 0 else { return nil }
    return Array(buffer.prefix(count))
  }

  /// Sends every byte of `bytes`; returns `false` when the peer closed or the write failed.
  static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
    #if canImport(Darwin)
    let flags: Int32 = 0
    #else
    let flags = Int32(MSG_NOSIGNAL)
    #endif
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes { raw -> Int in
        guard let base = raw.baseAddress else { return 0 }
        return send(descriptor, base + offset, raw.count - offset, flags)
      }
      if sent < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += sent
    }
    return true
  }

  /// Shuts both directions of `descriptor`, waking any thread blocked on it.
  static func shutdownBoth(_ descriptor: Int32) {
    _ = shutdown(descriptor, Int32(SHUT_RDWR))
  }

  /// Shuts the sending direction of `descriptor`, so the peer sees the end of the response.
  static func shutdownWrite(_ descriptor: Int32) {
    _ = shutdown(descriptor, Int32(SHUT_WR))
  }

  /// Closes `descriptor`.
  static func close(_ descriptor: Int32) {
    #if canImport(Darwin)
    _ = Darwin.close(descriptor)
    #else
    _ = Glibc.close(descriptor)
    #endif
  }
}
