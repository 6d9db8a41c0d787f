#if HTTP
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// An HTTP/1.1 server on 127.0.0.1 and an ephemeral port, for the tests: each
/// request is answered with the ``Reply`` the handler picks. It records the
/// requests and when each connection closed. Stop it with ``stop()``.
final class TestServer: Sendable {
  /// A request as the server received it.
  struct Request: Sendable {
    let method: String
    let uri: String
    let headers: [(String, String)]

    /// The first value of the field `name` (case ignored).
    func header(_ name: String) -> String? {
      headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
  }

  /// How the server answers one request.
  enum Reply: Sendable {
    /// A complete response (with `Content-Length`).
    case respond(status: Int, headers: [(String, String)], body: Data)
    /// The same after a pause.
    case delayed(Duration, status: Int, headers: [(String, String)], body: Data)
    /// A 200 whose chunked body is `chunk` bytes at a time, `total` bytes in all
    /// (endless when `nil`), until the client closes; `contentLength` declares a length,
    /// `headers` are added.
    case stream(chunk: Int, total: Int?, contentLength: Int?, headers: [(String, String)] = [])
    /// No answer at all, until the client closes the connection.
    case hang
  }

  private struct State {
    var requests: [Request] = []
    var closes: [ContinuousClock.Instant] = []
    var openConnections = 0
  }

  /// The port the server listens on.
  let port: Int
  private let state = Mutex(State())
  private let task: Mutex<Task<Void, Never>?> = Mutex(nil)
  private let channel:
    NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>

  /// Starts a server answering with `handler`; throws when it cannot listen.
  init(handler: @escaping @Sendable (Request) -> Reply) async throws {
    channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .bind(host: "127.0.0.1", port: 0) { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.configureHTTPServerPipeline()
          return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
            wrappingChannelSynchronously: channel)
        }
      }
    guard let port = channel.channel.localAddress?.port else {
      throw ServerError.noPort
    }
    self.port = port
    let channel = self.channel
    let started = Task {
      await withDiscardingTaskGroup { group in
        do {
          try await channel.executeThenClose { connections in
            for try await connection in connections {
              group.addTask { await self.serve(connection, handler: handler) }
            }
          }
        } catch {}
        group.cancelAll()
      }
    }
    task.withLock { $0 = started }
  }

  enum ServerError: Error { case noPort }

  /// `http://127.0.0.1:PORT` followed by `path`.
  func url(_ path: String) -> URL {
    URL(string: "http://127.0.0.1:\(port)\(path)")!
  }

  /// The requests received so far, in order.
  var requests: [Request] { state.withLock { $0.requests } }

  /// When each connection closed, in order.
  var closes: [ContinuousClock.Instant] { state.withLock { $0.closes } }

  /// How many connections are open.
  var openConnections: Int { state.withLock { $0.openConnections } }

  /// Stops listening and closes every connection.
  func stop() async {
    try? await channel.channel.close()
    let running = task.withLock { $0 }
    running?.cancel()
    await running?.value
  }

  /// Waits up to `limit` for `condition`, checking every 10 ms.
  func wait(upTo limit: Duration, for condition: () -> Bool) async -> Bool {
    let end = ContinuousClock.now + limit
    while ContinuousClock.now < end {
      if condition() { return true }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
  }

  private func serve(
    _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>,
    handler: @Sendable (Request) -> Reply
  ) async {
    state.withLock { $0.openConnections += 1 }
    defer {
      state.withLock {
        $0.openConnections -= 1
        $0.closes.append(.now)
      }
    }
    try? await connection.executeThenClose { inbound, outbound in
      var head: HTTPRequestHead?
      var hanging = false
      for try await part in inbound {
        switch part {
        case .head(let received): head = received
        case .body: break
        case .end:
          guard let head, !hanging else { continue }
          let request = Request(
            method: head.method.rawValue, uri: head.uri,
            headers: head.headers.map { ($0.name, $0.value) })
          state.withLock { $0.requests.append(request) }
          let reply = handler(request)
          if case .hang = reply {
            // Keep reading: the loop ends when the client closes the connection.
            hanging = true
            continue
          }
          try await Self.write(reply, for: head, to: outbound)
        }
      }
    }
  }

  private static func write(
    _ reply: Reply, for request: HTTPRequestHead,
    to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
  ) async throws {
    switch reply {
    case .respond(let status, let headers, let body):
      try await writeWhole(
        status: status, headers: headers, body: body, request: request, to: outbound)
    case .delayed(let pause, let status, let headers, let body):
      try await Task.sleep(for: pause)
      try await writeWhole(
        status: status, headers: headers, body: body, request: request, to: outbound)
    case .stream(let chunk, let total, let contentLength, let headers):
      var fields = HTTPHeaders(headers)
      if let contentLength {
        fields.add(name: "Content-Length", value: String(contentLength))
      } else {
        fields.add(name: "Transfer-Encoding", value: "chunked")
      }
      try await outbound.write(
        .head(HTTPResponseHead(version: .http1_1, status: .ok, headers: fields)))
      let buffer = ByteBuffer(repeating: 0x61, count: chunk)
      var sent = 0
      while total.map({ sent < $0 }) ?? true {
        try await outbound.write(.body(.byteBuffer(buffer)))
        sent += chunk
      }
      try await outbound.write(.end(nil))
    case .hang:
      break
    }
  }

  private static func writeWhole(
    status: Int, headers: [(String, String)], body: Data, request: HTTPRequestHead,
    to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
  ) async throws {
    var fields = HTTPHeaders(headers)
    if !fields.contains(name: "Content-Length") && status != 304 && status != 204 {
      fields.add(name: "Content-Length", value: String(body.count))
    }
    try await outbound.write(
      .head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: status), headers: fields))
    )
    if request.method != .HEAD && status != 304 && !body.isEmpty {
      try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body))))
    }
    try await outbound.write(.end(nil))
  }
}
#endif
