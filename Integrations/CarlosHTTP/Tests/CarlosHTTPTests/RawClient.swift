#if HTTP
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A client on a plain TCP socket, for what an HTTP client library would not
/// send: HTTP/1.0, raw header bytes, slow or no reading.
final class RawClient {
  let descriptor: Int32

  /// Connects to 127.0.0.1:`port`, with a receive buffer of `receiveBuffer`
  /// bytes when given (the system's own otherwise).
  init(port: Int, receiveBuffer: Int32? = nil) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    if var size = receiveBuffer {
      setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      close(descriptor)
      throw RawClientError.cannotConnect(errno)
    }
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  deinit { close(descriptor) }

  /// Sends `text` as it is.
  func send(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if written <= 0 { return }
      offset += written
    }
  }

  /// Reads until the server closes the connection (or `limit` bytes, or the
  /// 30-second receive timeout), pausing `pause` after each read of up to
  /// `chunk` bytes.
  func readAll(limit: Int = 1 << 30, chunk: Int = 64 << 10, pause: Duration? = nil) -> [UInt8] {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: chunk)
    while received.count < limit {
      let count = recv(descriptor, &buffer, chunk, 0)
      if count <= 0 { break }
      received.append(contentsOf: buffer[0..<count])
      if let pause { Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18) }
    }
    return received
  }

  /// Reads what arrives within `timeout` seconds (or until the connection closes).
  func read(within timeout: Double) -> [UInt8] {
    var received: [UInt8] = []
    let deadline = Date().addingTimeInterval(timeout)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while Date() < deadline {
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let left = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
      guard poll(&poller, 1, left) > 0 else { break }
      let count = recv(descriptor, &buffer, buffer.count, 0)
      if count <= 0 { break }
      received.append(contentsOf: buffer[0..<count])
    }
    return received
  }

  /// Whether the server has closed the connection: a read finds its end within
  /// `timeout` seconds.
  func isClosed(within timeout: Double) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while Date() < deadline {
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let left = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
      guard poll(&poller, 1, left) > 0 else { return false }
      let count = recv(descriptor, &buffer, buffer.count, 0)
      if count <= 0 { return true }
    }
    return false
  }
}

enum RawClientError: Error { case cannotConnect(Int32) }

/// A response read off a socket: its status, header fields and body.
struct RawResponse {
  let status: Int
  let headers: [(String, String)]
  let body: [UInt8]

  /// Splits `bytes` at the first blank line; `nil` without one.
  init?(_ bytes: [UInt8]) {
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    guard
      let end = (0...(max(0, bytes.count - 4))).first(where: {
        bytes[$0..<min($0 + 4, bytes.count)].elementsEqual(separator)
      }),
      bytes.count >= 4
    else { return nil }
    let lines = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let statusWords = lines[0].split(separator: " ")
    guard statusWords.count >= 2, let status = Int(statusWords[1]) else { return nil }
    self.status = status
    headers = lines.dropFirst().compactMap { line in
      guard let colon = line.firstIndex(of: ":") else { return nil }
      return (
        String(line[..<colon]),
        line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      )
    }
    body = Array(bytes[(end + 4)...])
  }

  /// The first value of `name` (case ignored).
  func header(_ name: String) -> String? {
    headers.first { $0.0.lowercased() == name.lowercased() }?.1
  }
}
#endif
