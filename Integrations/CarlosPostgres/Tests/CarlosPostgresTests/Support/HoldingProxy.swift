#if Postgres
import Foundation
import Glibc
import Synchronization
import Testing

/// A TCP proxy on 127.0.0.1 in front of a server whose answers can be held back: the
/// server has answered, the client has not heard it yet, as over a slow network or in
/// a process starved of CPU. It can also cut the way to the server, as a network
/// partition of one client would.
final class HoldingProxy: Sendable {
  /// The proxy's port.
  let port: Int
  private let target: Int
  private let listening: Int32
  private let state = Mutex<State>(State())

  private struct State {
    var holding = false
    var heldBytes = 0
    var sockets: Set<Int32> = []
    var closed = false
    var cut = false
    /// The pumps still running for each connection, by its client socket.
    var pumping: [Int32: Int] = [:]
  }

  /// A proxy to port `target` of 127.0.0.1, accepting connections until ``close()``.
  init(to target: Int) throws {
    self.target = target
    let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    self.listening = listening
    var address = Self.loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        bind(listening, address, length) == 0 && listen(listening, 16) == 0
          && getsockname(listening, address, &length) == 0
      }
    }
    guard bound else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    port = Int(UInt16(bigEndian: address.sin_port))
    Thread.detachNewThread { [self] in acceptConnections() }
  }

  /// A proxy in front of the test server, and the test server's URL with the
  /// proxy's port: a client made from it goes through the proxy.
  static func toTestServer() throws -> (proxy: HoldingProxy, url: String) {
    var server = try #require(URLComponents(string: try PostgresTestServer.url()))
    let proxy = try HoldingProxy(to: server.port ?? 5432)
    server.port = proxy.port
    return (proxy, try #require(server.string))
  }

  /// From now on, the server's bytes wait in the proxy.
  func hold() { state.withLock { $0.holding = true } }

  /// Sends the bytes held and lets the next ones through.
  func release() { state.withLock { $0.holding = false } }

  /// How many bytes of the server's arrived while held.
  var heldBytes: Int { state.withLock { $0.heldBytes } }

  /// Closes every connection, and each new one as soon as it is accepted, until
  /// ``restore()``: to its clients the server is unreachable.
  func cut() {
    let sockets = state.withLock { state -> Set<Int32> in
      state.cut = true
      return state.sockets
    }
    for socket in sockets { shutdown(socket, Int32(SHUT_RDWR)) }
  }

  /// Lets new connections through to the server again.
  func restore() { state.withLock { $0.cut = false } }

  /// Stops accepting and closes every connection.
  func close() {
    let sockets = state.withLock { state -> Set<Int32> in
      state.closed = true
      state.holding = false
      return state.sockets
    }
    shutdown(listening, Int32(SHUT_RDWR))
    Glibc.close(listening)
    for socket in sockets { shutdown(socket, Int32(SHUT_RDWR)) }
  }

  private func acceptConnections() {
    while true {
      let client = accept(listening, nil, nil)
      guard client >= 0 else { return }
      let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = Self.loopback(port: target)
      let connected = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
      }
      let open = state.withLock { state -> Bool in
        guard !state.closed, !state.cut, connected else { return false }
        state.sockets.formUnion([client, server])
        return true
      }
      guard open else {
        Glibc.close(client)
        Glibc.close(server)
        continue
      }
      // The second pump to end closes both sockets.
      let finished: @Sendable () -> Void = { [self] in
        state.withLock { state in
          state.pumping[client, default: 2] -= 1
          guard state.pumping[client] == 0 else { return }
          state.pumping[client] = nil
          state.sockets.subtract([client, server])
          Glibc.close(client)
          Glibc.close(server)
        }
      }
      Thread.detachNewThread { [self] in
        pump(from: client, to: server, holdable: false)
        finished()
      }
      Thread.detachNewThread { [self] in
        pump(from: server, to: client, holdable: true)
        finished()
      }
    }
  }

  /// Copies bytes from `source` to `destination` until either closes.
  private func pump(from source: Int32, to destination: Int32, holdable: Bool) {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    defer { shutdown(destination, Int32(SHUT_RDWR)) }
    while true {
      let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
      guard count > 0 else { return }
      if holdable {
        var counted = false
        while state.withLock({ state -> Bool in
          if state.holding, !counted { state.heldBytes += count }
          return state.holding
        }) {
          counted = true
          usleep(5_000)
        }
      }
      var sent = 0
      while sent < count {
        let written = buffer.withUnsafeBytes {
          write(destination, $0.baseAddress! + sent, count - sent)
        }
        guard written > 0 else { return }
        sent += written
      }
    }
  }

  private static func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }
}
#endif
