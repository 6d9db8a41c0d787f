#if HTTP
import NIOCore
import NIOHTTP1
import NIOPosix

/// A plain-text HTTP endpoint serving ``CachingProxyCounters/text`` at
/// `GET /metrics` (404 elsewhere), on a port of its own so that it is never
/// behind the proxy's clients.
public final class MetricsEndpoint: Sendable {
  /// The port it listens on.
  public let port: Int
  private let channel:
    NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
  private let counters: CachingProxyCounters

  /// Starts listening on `host` and `port` (0: any free port).
  public init(counters: CachingProxyCounters, host: String = "127.0.0.1", port: Int) async throws {
    self.counters = counters
    channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .bind(host: host, port: port) { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.configureHTTPServerPipeline()
          return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
            wrappingChannelSynchronously: channel)
        }
      }
    guard let bound = channel.channel.localAddress?.port else {
      try? await channel.channel.close()
      throw CachingProxyError.noPort
    }
    self.port = bound
  }

  /// Answers until the process ends.
  public func run() async {
    await withDiscardingTaskGroup { group in
      try? await channel.executeThenClose { connections in
        for try await connection in connections {
          group.addTask { await self.serve(connection) }
        }
      }
    }
  }

  private func serve(
    _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>
  ) async {
    try? await connection.executeThenClose { inbound, outbound in
      var target = ""
      for try await part in inbound {
        switch part {
        case .head(let head): target = head.uri
        case .body: continue
        case .end:
          let found = target == "/metrics"
          let body = ByteBuffer(string: found ? counters.text : "not found\n")
          var head = HTTPResponseHead(version: .http1_1, status: found ? .ok : .notFound)
          head.headers.add(name: "Content-Type", value: "text/plain; version=0.0.4")
          head.headers.add(name: "Content-Length", value: String(body.readableBytes))
          try await outbound.write(contentsOf: [.head(head), .body(.byteBuffer(body)), .end(nil)])
        }
      }
    }
  }
}
#endif
