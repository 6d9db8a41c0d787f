import Carlos
import CarlosHTTP
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A caching reverse proxy: an HTTP/1.1 server that answers every request
/// through an ``HTTPCache`` (or any level of requests and responses) in front of
/// one upstream origin. It makes no caching decision of its own: it turns each
/// request into an `HTTPRequestKey` on the upstream URL (hop-by-hop fields and
/// `Host` left out, the body kept), and writes back what the cache answers,
/// without hop-by-hop fields. A failure to reach the upstream is a 502, a
/// timeout a 504.
///
/// ```swift
/// let server = try await CachingProxyServer(cache: cache, upstream: upstream, port: 0)
/// print("listening \(server.port)")
/// await server.run()
/// ```
public final class CachingProxyServer: Sendable {
  /// The port the server listens on.
  public let port: Int
  /// The largest request body the proxy accepts, in bytes; a larger one gets a 413.
  public let maximumRequestBodySize: Int

  private let cache: any CacheLevel<HTTPRequestKey, HTTPResponse>
  private let upstream: URL
  private let channel:
    NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
  private let serving: Mutex<Task<Void, Never>?> = Mutex(nil)

  /// Starts listening on `host` and `port` (0: any free port); throws when it
  /// cannot. Requests are answered once ``run()`` or ``start()`` is called.
  public init(
    cache: any CacheLevel<HTTPRequestKey, HTTPResponse>, upstream: URL,
    host: String = "127.0.0.1", port: Int = 0, maximumRequestBodySize: Int = 16 << 20
  ) async throws {
    self.cache = cache
    self.upstream = upstream
    self.maximumRequestBodySize = maximumRequestBodySize
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

  /// Serves connections in the background; ``stop()`` ends it.
  public func start() {
    let task = Task { await self.run() }
    serving.withLock { $0 = task }
  }

  /// Serves connections until ``stop()`` closes the listening socket.
  public func run() async {
    let channel = self.channel
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

  /// Stops listening and ends the open connections.
  public func stop() async {
    try? await channel.channel.close()
    let task = serving.withLock { $0 }
    task?.cancel()
    await task?.value
  }

  // MARK: - One connection

  private func serve(
    _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>
  ) async {
    try? await connection.executeThenClose { inbound, outbound in
      var head: HTTPRequestHead?
      var body = Data()
      var tooLarge = false
      for try await part in inbound {
        switch part {
        case .head(let received):
          head = received
          body = Data()
          tooLarge = false
        case .body(var buffer):
          if body.count + buffer.readableBytes > maximumRequestBodySize {
            tooLarge = true
          } else if let bytes = buffer.readBytes(length: buffer.readableBytes) {
            body.append(contentsOf: bytes)
          }
        case .end:
          guard let request = head else { continue }
          head = nil
          let response =
            tooLarge
            ? HTTPResponse(status: 413, headers: ["Content-Length": "0"])
            : await answer(request, body: body)
          try await Self.write(response, for: request, to: outbound)
          if !request.isKeepAlive { return }
        }
      }
    }
  }

  /// The cache's answer to one request, or a 502/504 when the upstream fails.
  private func answer(_ head: HTTPRequestHead, body: Data) async -> HTTPResponse {
    guard let url = upstreamURL(for: head.uri) else {
      return HTTPResponse(status: 400, headers: ["Content-Length": "0"])
    }
    var fields = HTTPHeaderFields(head.headers.map { HTTPHeader(name: $0.name, value: $0.value) })
      .removingHopByHop()
    for name in ["Host", "Content-Length", "Expect"] { fields.remove(name: name) }
    // NIO names M-SEARCH `MSEARCH`; the origin must see the method the client sent.
    let method = head.method == .MSEARCH ? "M-SEARCH" : head.method.rawValue
    let request = HTTPRequestKey(url, method: method, headers: fields, body: body)
    do {
      return try await cache.get(request).value
    } catch HTTPFetcherError.timedOut, HTTPFetcherError.deadlineExceeded {
      return HTTPResponse(status: 504, headers: ["Content-Length": "0"])
    } catch {
      // The error only: request targets are cache keys, which stay out of logs.
      FileHandle.standardError.write(Data("carlos-caching-proxy: upstream failed: \(error)\n".utf8))
      return HTTPResponse(
        status: 502, headers: ["Content-Type": "text/plain"],
        body: Data("upstream failed: \(error)\n".utf8))
    }
  }

  /// The upstream URL for a request target (origin form, or absolute form whose
  /// path and query are taken).
  private func upstreamURL(for target: String) -> URL? {
    var pathAndQuery = target
    if !target.hasPrefix("/") {
      guard let absolute = URLComponents(string: target), absolute.host != nil else { return nil }
      pathAndQuery = absolute.percentEncodedPath.isEmpty ? "/" : absolute.percentEncodedPath
      if let query = absolute.percentEncodedQuery { pathAndQuery += "?" + query }
    }
    var base = upstream.absoluteString
    while base.hasSuffix("/") { base.removeLast() }
    return URL(string: base + pathAndQuery)
  }

  /// Writes `response` without hop-by-hop fields, framed by `Content-Length`
  /// (a HEAD answer keeps the length the upstream gave).
  private static func write(
    _ response: HTTPResponse, for request: HTTPRequestHead,
    to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
  ) async throws {
    var fields = response.headers.removingHopByHop()
    let bodiless =
      request.method == .HEAD || response.status == 304 || response.status == 204
      || (100..<200).contains(response.status)
    if request.method != .HEAD { fields.remove(name: "Content-Length") }
    if !bodiless { fields.add(name: "Content-Length", value: String(response.body.count)) }
    if !request.isKeepAlive { fields.add(name: "Connection", value: "close") }
    var head = HTTPResponseHead(
      version: .http1_1, status: HTTPResponseStatus(statusCode: response.status))
    for field in fields { head.headers.add(name: field.name, value: field.value) }
    // One write of every part: one flush, so head and body leave in one system call.
    var parts: [HTTPServerResponsePart] = [.head(head)]
    if !bodiless && !response.body.isEmpty {
      parts.append(.body(.byteBuffer(ByteBuffer(bytes: response.body))))
    }
    parts.append(.end(nil))
    try await outbound.write(contentsOf: parts)
  }
}
