#if HTTP
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// An origin for the relay tests on 127.0.0.1 and an ephemeral port: it answers
/// every request with a 200 of `body` (with `headers`, and `Content-Length`
/// unless `declaresLength` is false: then chunked),
/// sends the first `firstPart` bytes at once, and the rest only once
/// ``release()`` was called; what it then does is its ``Ending``. It counts the
/// requests and the first parts sent. Stop it with ``stop()``.
final class GatedOrigin: Sendable {
  /// What the origin does once released.
  enum Ending: Sendable {
    /// Sends the rest of the body.
    case finish
    /// Closes the connection without the rest.
    case die
  }

  private struct State {
    var requests = 0
    var firstPartsSent = 0
    var released = false
    var waiting: [CheckedContinuation<Void, Never>] = []
    var ending: Ending
  }

  /// The port the origin listens on.
  let port: Int
  /// The whole body.
  let body: Data
  /// How many bytes are sent before the release.
  let firstPart: Int
  private let headers: [(String, String)]
  private let declaresLength: Bool
  private let state: Mutex<State>
  private let task: Mutex<Task<Void, Never>?> = Mutex(nil)
  private let channel:
    NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>

  /// Starts an origin answering with `body`; throws when it cannot listen.
  init(
    body: Data, firstPart: Int, headers: [(String, String)], ending: Ending = .finish,
    declaresLength: Bool = true
  ) async throws {
    self.declaresLength = declaresLength
    self.body = body
    self.firstPart = min(firstPart, body.count)
    self.headers = headers
    state = Mutex(State(ending: ending))
    channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .bind(host: "127.0.0.1", port: 0) { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.configureHTTPServerPipeline()
          return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
            wrappingChannelSynchronously: channel)
        }
      }
    port = channel.channel.localAddress?.port ?? 0
    let channel = self.channel
    let started = Task {
      await withDiscardingTaskGroup { group in
        do {
          try await channel.executeThenClose { connections in
            for try await connection in connections {
              group.addTask { await self.serve(connection) }
            }
          }
        } catch {}
        group.cancelAll()
      }
    }
    task.withLock { $0 = started }
  }

  /// `http://127.0.0.1:PORT`.
  var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// The requests received so far.
  var requests: Int { state.withLock { $0.requests } }

  /// How many first parts were sent so far.
  var firstPartsSent: Int { state.withLock { $0.firstPartsSent } }

  /// Lets every response waiting after its first part go on (and the later ones
  /// not wait).
  func release() {
    let waiting = state.withLock { state in
      state.released = true
      defer { state.waiting = [] }
      return state.waiting
    }
    for waiter in waiting { waiter.resume() }
  }

  /// From now on, released responses end so.
  func setEnding(_ ending: Ending) {
    state.withLock { $0.ending = ending }
  }

  /// Stops listening and closes every connection.
  func stop() async {
    release()
    try? await channel.channel.close()
    let running = task.withLock { $0 }
    running?.cancel()
    await running?.value
  }

  private func gate() async {
    await withCheckedContinuation { continuation in
      let open = state.withLock { state in
        if !state.released { state.waiting.append(continuation) }
        return state.released
      }
      if open { continuation.resume() }
    }
  }

  private func serve(
    _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>
  ) async {
    try? await connection.executeThenClose { inbound, outbound in
      for try await part in inbound {
        guard case .end = part else { continue }
        state.withLock { $0.requests += 1 }
        var fields = HTTPHeaders(headers)
        if declaresLength {
          fields.add(name: "Content-Length", value: String(body.count))
        } else {
          fields.add(name: "Transfer-Encoding", value: "chunked")
        }
        try await outbound.write(
          .head(HTTPResponseHead(version: .http1_1, status: .ok, headers: fields)))
        try await outbound.write(
          .body(.byteBuffer(ByteBuffer(bytes: body.prefix(firstPart)))))
        state.withLock { $0.firstPartsSent += 1 }
        await gate()
        if state.withLock({ $0.ending }) == .die {
          try await connection.channel.close()
          return
        }
        var offset = firstPart
        while offset < body.count {
          let end = min(offset + (256 << 10), body.count)
          try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body[offset..<end]))))
          offset = end
        }
        try await outbound.write(.end(nil))
      }
    }
  }
}
#endif
