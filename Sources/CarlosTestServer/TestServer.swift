import Dispatch
import Foundation
import PiedPiper

/// A tiny HTTP/1.1 server on 127.0.0.1, for tests and Playground examples.
///
/// It listens on a port the system picks (see ``port``), answers every request
/// with what its handler returns for the request's path, counts requests per
/// path, and notices clients that close the connection before the response is
/// complete. Each connection is served on its own thread and closed after one
/// response (`Connection: close`). ``stop()`` (or releasing the server) closes
/// every socket and waits for every thread to end. Safe to use from many threads.
public final class TestServer: Sendable {
  /// Answers one request: receives the request's path (with its query) and
  /// returns the response. Runs on the connection's thread; it must not call ``stop()``.
  public typealias Handler = @Sendable (_ path: String) -> TestServerResponse

  /// The port the server listens on, on 127.0.0.1.
  public let port: UInt16

  private let core: TestServerCore

  /// Starts a server on 127.0.0.1 on a free port.
  ///
  /// - Parameter handler: answers each request from its path.
  /// - Throws: ``TestServerError`` when the socket cannot be opened.
  public init(handler: @escaping Handler) throws(TestServerError) {
    let (descriptor, port) = try Socket.listenOnLoopback()
    self.port = port
    core = TestServerCore(listener: descriptor, handler: handler)
    core.start()
  }

  deinit {
    core.stop()
  }

  /// `http://127.0.0.1:<port>`.
  public var baseURL: URL {
    url("/")
  }

  /// The URL of `path` on this server; `path` should start with `/`.
  public func url(_ path: String) -> URL {
    let suffix = path.hasPrefix("/") ? path : "/" + path
    // A host and port always make a valid URL; fall back to the root only if the path is garbage.
    return URL(string: "http://127.0.0.1:\(port)\(suffix)") ?? URL(fileURLWithPath: "/")
  }

  /// How many requests for `path` the server has read.
  public func requestCount(_ path: String) -> Int {
    core.state.withLock { $0.requests[path, default: 0] }
  }

  /// How many bytes of generated bodies (see ``TestServerResponse/generated(length:declaringLength:pieceSize:pieceDelay:)``)
  /// the server has handed to the network for `path`.
  public func generatedBytesSent(_ path: String) -> Int {
    core.state.withLock { $0.generatedBytes[path, default: 0] }
  }

  /// How many requests the server has read, for every path.
  public var totalRequestCount: Int {
    core.state.withLock { $0.requests.values.reduce(0, +) }
  }

  /// How many clients asking for `path` closed their connection before the
  /// server had sent the whole response.
  public func clientDisconnectCount(_ path: String) -> Int {
    core.state.withLock { $0.disconnects[path, default: 0] }
  }

  /// Waits until at least `count` requests for `path` have arrived, or `timeout`
  /// seconds have passed; returns whether they arrived.
  public func waitForRequests(_ path: String, count: Int = 1, timeout: TimeInterval = 5) async
    -> Bool
  {
    await waitUntil(timeout: timeout) { self.requestCount(path) >= count }
  }

  /// Waits until at least `count` clients asking for `path` have closed their
  /// connection early, or `timeout` seconds have passed; returns whether they did.
  public func waitForClientDisconnect(_ path: String, count: Int = 1, timeout: TimeInterval = 5)
    async -> Bool
  {
    await waitUntil(timeout: timeout) { self.clientDisconnectCount(path) >= count }
  }

  /// Closes the listening socket and every open connection, and waits for
  /// every server thread to end. Calling it again does nothing.
  public func stop() {
    core.stop()
  }

  private func waitUntil(timeout: TimeInterval, _ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
      if Date() >= deadline { return false }
      try? await Task.sleep(nanoseconds: 5_000_000)
    }
    return true
  }
}

/// The state shared by the server's threads. Threads hold the core, not the
/// ``TestServer``, so releasing the server stops them.
final class TestServerCore: Sendable {
  struct State {
    var requests: [String: Int] = [:]
    var disconnects: [String: Int] = [:]
    var generatedBytes: [String: Int] = [:]
    var openConnections: Set<Int32> = []
    var stopped = false
    var listenerClosed = false
  }

  let state = Lock(State())
  let listener: Int32
  let handler: TestServer.Handler
  let threads = DispatchGroup()

  /// How long one wait on a socket lasts before the stop flag is checked again.
  static let pollSliceMilliseconds: Int32 = 10

  init(listener: Int32, handler: @escaping TestServer.Handler) {
    self.listener = listener
    self.handler = handler
  }

  var isStopped: Bool {
    state.withLock { $0.stopped }
  }

  func start() {
    threads.enter()
    let thread = Thread { [self] in
      acceptLoop()
      threads.leave()
    }
    thread.name = "TestServer.accept"
    thread.start()
  }

  func stop() {
    let alreadyStopped: Bool = state.withLock { state in
      if state.stopped { return true }
      state.stopped = true
      Socket.shutdownBoth(listener)
      for connection in state.openConnections { Socket.shutdownBoth(connection) }
      return false
    }
    if alreadyStopped { return }
    _ = threads.wait(timeout: .now() + 10)
    state.withLock { state in
      if !state.listenerClosed {
        state.listenerClosed = true
        Socket.close(listener)
      }
    }
  }

  private func acceptLoop() {
    while !isStopped {
      guard Socket.waitReadable(listener, milliseconds: Self.pollSliceMilliseconds) else {
        continue
      }
      guard let connection = Socket.accept(listener) else { continue }
      let accepted: Bool = state.withLock { state in
        if state.stopped { return false }
        state.openConnections.insert(connection)
        return true
      }
      guard accepted else {
        Socket.close(connection)
        return
      }
      threads.enter()
      let thread = Thread { [self] in
        serve(connection)
        state.withLock { state in
          state.openConnections.remove(connection)
          Socket.close(connection)
        }
        threads.leave()
      }
      thread.name = "TestServer.connection"
      thread.start()
    }
  }

  func recordRequest(_ path: String) {
    state.withLock { $0.requests[path, default: 0] += 1 }
  }

  func recordBodyBytes(_ path: String, _ count: Int) {
    state.withLock { $0.generatedBytes[path, default: 0] += count }
  }

  func recordDisconnect(_ path: String) {
    state.withLock { $0.disconnects[path, default: 0] += 1 }
  }
}
