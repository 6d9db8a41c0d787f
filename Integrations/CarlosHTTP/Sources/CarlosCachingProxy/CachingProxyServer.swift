#if HTTP
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
/// timeout a 504. A response from the origin that the cache stores is written
/// to its client while it arrives, not after (see `relays(_:)`); one it does
/// not store is streamed through as it arrives when it is large.
///
/// Clients are held to ``CachingProxyLimits``: a request without exactly one
/// `Host` (HTTP/1.1) gets a 400, a target, header or body above its limit a 414,
/// 431 or 413; `Expect: 100-continue` is answered at once; slow, idle and
/// non-reading clients are closed after their timeout; connections above the
/// maximum get a 503. Every byte of a response is sent before a connection
/// closes, and at most a few chunks of it wait in memory per client.
///
/// ```swift
/// let server = try await CachingProxyServer(cache: cache, upstream: upstream, port: 0)
/// print("listening \(server.port)")
/// await server.run()
/// ```
public final class CachingProxyServer: Sendable {
  /// The port the server listens on.
  public let port: Int
  /// The timeouts and limits clients are held to.
  public let limits: CachingProxyLimits
  /// What the server has done.
  public let counters: CachingProxyCounters
  /// The largest request body the proxy accepts, in bytes; a larger one gets a 413.
  public var maximumRequestBodySize: Int { limits.maximumRequestBodySize }

  /// The bytes of a stored response body written at once.
  static let chunkSize = 64 << 10
  /// How many bytes of a body may wait for the socket per connection (above
  /// the channel's 64 KiB high write watermark: see `BodyWriter`).
  static let writeWindow = 256 << 10

  /// The cache's answer to a request, awaited in the request's task.
  private let ask: @Sendable (HTTPRequestKey) async throws -> HTTPResponse
  private let policy: HTTPCachePolicy
  /// The upstream URL's text without a final `/`, which request targets follow.
  private let upstreamBase: String
  private let failures = RateLimitedLog(prefix: "carlos-caching-proxy")
  private let accessLog: (@Sendable (String) -> Void)?
  private let channel:
    NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
  private let serving: Mutex<Task<Void, Never>?> = Mutex(nil)
  private let connections: ConnectionRegistry

  /// Starts listening on `host` and `port` (0: any free port); throws when it
  /// cannot. Requests are answered once ``run()`` or ``start()`` is called;
  /// `accessLog`, when given, receives one line per request. A response that
  /// `policy` (the cache's) would not store, or that is larger than the origin
  /// level's limit, is streamed to its client as it arrives (see
  /// `HTTPResponseHandoff`); one it stores is written to its client as it
  /// arrives while the cache collects it (`HTTPResponseHandoff`'s `whenObserved`).
  public init(
    cache: any CacheLevel<HTTPRequestKey, HTTPResponse>, policy: HTTPCachePolicy = .cdn,
    upstream: URL,
    host: String = "127.0.0.1", port: Int = 0, limits: CachingProxyLimits = CachingProxyLimits(),
    counters: CachingProxyCounters = CachingProxyCounters(),
    accessLog: (@Sendable (String) -> Void)? = nil
  ) async throws {
    if let responder = cache as? any HTTPResponder {
      ask = { try await responder.response(for: $0) }
    } else {
      ask = { try await cache.get($0).value }
    }
    self.policy = policy
    var base = upstream.absoluteString
    while base.hasSuffix("/") { base.removeLast() }
    upstreamBase = base
    self.limits = limits
    self.counters = counters
    self.accessLog = accessLog
    let connections = ConnectionRegistry()
    self.connections = connections
    let decoderLimits = {
      var decoder = NIOHTTPDecoderLimitConfiguration()
      decoder.maxHeaderFieldSize = limits.maximumHeaderBytes
      decoder.maxHeaderListSize = limits.maximumHeaderBytes
      decoder.maxHeaderFieldCount = limits.maximumHeaderCount
      return decoder
    }()
    channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .serverChannelOption(.backlog, value: 1024)
      .bind(host: host, port: port) { channel in
        channel.eventLoop.makeCompletedFuture {
          let open = counters.opened()
          channel.closeFuture.whenComplete { _ in counters.closed() }
          counters.add(.connections)
          if open > limits.maximumConnections || connections.isDraining {
            counters.add(.connectionsRefused)
            try channel.pipeline.syncOperations.addHandler(RefusedConnection())
          } else {
            try channel.pipeline.syncOperations.addHandler(
              RequestLineLimit(maximumTargetLength: limits.maximumTargetLength))
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(
              withPipeliningAssistance: false, withServerUpgrade: nil, withErrorHandling: false,
              withOutboundHeaderValidation: true, withEncoderConfiguration: .init(),
              withDecoderLimitConfiguration: decoderLimits)
            try channel.pipeline.syncOperations.addHandler(
              ConnectionGuard(limits: limits) { _ in counters.add(.timeouts) })
          }
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

  /// Serves connections until ``stop()`` or ``drain()`` closes the listening
  /// socket and the open connections have ended.
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
    }
  }

  /// Stops listening and ends the open connections.
  public func stop() async {
    try? await channel.channel.close()
    connections.closeAll()
    let task = serving.withLock { $0 }
    task?.cancel()
    await task?.value
  }

  /// Stops listening, closes idle connections, and lets each response in flight
  /// finish (its connection closes after it) for up to
  /// ``CachingProxyLimits/drainTimeout``; then ends what is left. What a
  /// SIGTERM does to `carlos-caching-proxy`.
  public func drain() async {
    connections.startDraining()
    try? await channel.channel.close()
    let deadline = ContinuousClock.now + limits.drainTimeout
    while connections.count > 0 && ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(50))
    }
    await stop()
  }

  // MARK: - One connection

  /// A request being read.
  private struct Incoming {
    let head: HTTPRequestHead
    let started: ContinuousClock.Instant
    var body = Data()
  }

  private func serve(
    _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>
  ) async {
    let channel = connection.channel
    guard let id = connections.add(channel) else {
      try? await channel.close()
      return
    }
    defer { connections.remove(id) }
    try? await connection.executeThenClose { inbound, _ in
      var incoming: Incoming?
      for try await part in inbound {
        switch part {
        case .head(let head):
          connections.setBusy(id, true)
          let request = Incoming(head: head, started: .now)
          if let refusal = refusal(of: head) {
            counters.add(.refused)
            _ = try await send(refusal, for: request, closing: true, on: channel)
            return
          }
          if head.headers.contains(name: "Expect"),
            head.headers[canonicalForm: "Expect"].contains(where: {
              $0.lowercased() == "100-continue"
            })
          {
            try await channel.writeAndFlush(
              HTTPServerResponsePart.head(
                HTTPResponseHead(version: head.version, status: .continue))
            ).get()
          }
          incoming = request
        case .body(let buffer):
          guard var request = incoming else { continue }
          guard request.body.count + buffer.readableBytes <= limits.maximumRequestBodySize else {
            counters.add(.refused)
            _ = try await send(Self.plain(413), for: request, closing: true, on: channel)
            return
          }
          request.body.append(contentsOf: buffer.readableBytesView)
          incoming = request
        case .end:
          guard let request = incoming else { continue }
          incoming = nil
          let activity = RequestActivity()
          let report = HTTPCacheReport()
          let (response, handoff, relayed) = await RequestActivity.$current.withValue(activity) {
            await HTTPCacheReport.$current.withValue(report) {
              await respond(to: request.head, body: request.body, on: channel)
            }
          }
          let outcome = Self.outcome(
            of: request.head, response: response, activity: activity, report: report)
          counters.add(outcome.counter)
          let closing = !request.head.isKeepAlive || connections.isDraining
          let mustClose = try await send(
            response, streaming: relayed == nil ? handoff?.body(for: response) : nil,
            relayed: relayed, for: request, closing: closing, on: channel,
            outcome: outcome.name)
          connections.setBusy(id, false)
          if closing || mustClose { return }
        }
      }
    }
  }

  /// The answer that refuses `head` before the cache sees it, or `nil` when the
  /// request may go on: 400 without exactly one `Host` in HTTP/1.1, 414 for a
  /// long target, 431 for too many or too large header fields, 413 for a
  /// declared body above the limit.
  private func refusal(of head: HTTPRequestHead) -> HTTPResponse? {
    if head.uri.utf8.count > limits.maximumTargetLength { return Self.plain(414) }
    if head.headers.count > limits.maximumHeaderCount
      || head.headers.reduce(0, { $0 + $1.name.utf8.count + $1.value.utf8.count })
        > limits.maximumHeaderBytes
    {
      return Self.plain(431)
    }
    if head.version.major == 1 && head.version.minor >= 1 {
      // Exactly one Host field, with one value (RFC 9112 §3.2).
      let hosts = head.headers["Host"]
      guard hosts.count == 1, !hosts[0].contains(",") else { return Self.plain(400) }
    }
    if let length = head.headers.first(name: "Content-Length").flatMap(Int.init),
      length > limits.maximumRequestBodySize
    {
      return Self.plain(413)
    }
    return nil
  }

  /// The task writing a response relayed to its client while it arrives, once
  /// one is started.
  private final class RelayTask: Sendable {
    private let task = Mutex<Task<Relayed, Never>?>(nil)

    func start(_ work: @escaping @Sendable () async -> Relayed) {
      let started = Task { await work() }
      task.withLock { $0 = started }
    }

    /// How the relay went, once it ended; `nil` when none was started.
    func outcome() async -> Relayed? {
      await task.withLock { $0 }?.value
    }
  }

  /// How a response relayed to its client while it arrived was written.
  private struct Relayed: Sendable {
    /// The status written.
    let status: Int
    /// The body bytes handed to the socket.
    let sent: Int
    /// Whether the connection must close: asked for, a body delimited by the
    /// close, or a body cut short (the origin failed midway, or the client went).
    let mustClose: Bool
  }

  /// The cache's answer to one request, or a 502/504 when the upstream fails,
  /// with the handoff where a response the cache will not store left its body
  /// to be streamed; and, when the origin's response was relayed to the client
  /// while it arrived (see ``relays(_:)``), how that went: the cache's answer is
  /// then not to be written.
  private func respond(to head: HTTPRequestHead, body: Data, on channel: any Channel) async -> (
    HTTPResponse, HTTPResponseHandoff?, Relayed?
  ) {
    guard let url = upstreamURL(for: head.uri) else { return (Self.plain(400), nil, nil) }
    var fields = HTTPHeaderFields(head.headers.map { HTTPHeader(name: $0.name, value: $0.value) })
      .removingHopByHop()
    for name in ["Host", "Content-Length", "Expect"] { fields.remove(name: name) }
    // NIO names M-SEARCH `MSEARCH`; the origin must see the method the client sent.
    let method = head.method == .MSEARCH ? "M-SEARCH" : head.method.rawValue
    let request = HTTPRequestKey(url, method: method, headers: fields, body: body)
    // A response relayed while it arrives is written by a task of its own, started
    // when its head arrives: a hit costs no task.
    let relaying = RelayTask()
    let handoff = self.handoff(for: request) { observed in
      relaying.start { await self.relay(observed, for: head, on: channel) }
    }
    let (response, streaming) = await answer(request, handoff: handoff)
    handoff.stopObserving()
    return (response, streaming, await relaying.outcome())
  }

  /// Whether the cache, when it asks the origin for `request`, answers with the
  /// origin's response as it came (a revalidation's adds `Age`), so that the
  /// response can be written to the client while it arrives: a GET without a
  /// body, without `Range` and without the client's own validators
  /// (`If-None-Match`, `If-Modified-Since`, `If-Match`, `If-Unmodified-Since`,
  /// `If-Range`), for which the cache could answer with a 206 or 304 made from
  /// the response instead.
  static func relays(_ request: HTTPRequestKey) -> Bool {
    request.method == "GET" && request.body.isEmpty
      && ![
        "Range", "If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since",
        "If-Range",
      ].contains(where: request.headers.contains(name:))
  }

  /// The handoff for `request`'s fetch. It streams a response `policy` would
  /// not store, when its body is large (above ``chunkSize``) or of unknown
  /// length; and it lets the proxy observe one `policy` stores (when
  /// ``relays(_:)``) under the same condition on its length, unless it is a
  /// server error (which the cache may answer with a stored response under
  /// `stale-if-error`). Small bodies are collected, then written in one flush.
  private func handoff(
    for request: HTTPRequestKey,
    whenObserved: @escaping @Sendable (HTTPResponseHandoff.Handed) -> Void
  ) -> HTTPResponseHandoff {
    let policy = self.policy
    let relays = Self.relays(request)
    let stores = { @Sendable (status: Int, headers: HTTPHeaderFields) -> Bool in
      let now = Date()
      return policy.record(
        for: HTTPResponse(status: status, headers: headers), to: request, requestTime: now,
        responseTime: now) != nil
    }
    return HTTPResponseHandoff(
      shouldStream: { status, headers, length in
        guard length.map({ $0 > Self.chunkSize }) ?? true else { return false }
        return !stores(status, headers)
      },
      shouldObserve: { status, headers, length in
        guard relays, length.map({ $0 > Self.chunkSize }) ?? true, status < 500 else {
          return false
        }
        return stores(status, headers)
      }, whenObserved: whenObserved)
  }

  /// Writes `observed`, the origin's response being collected by the cache, to
  /// the client as it arrives (see ``stream(_:for:closing:to:sent:)``). When the
  /// origin fails midway (or the client goes), the connection is closed at
  /// once, without the body's end, so the client sees the response is
  /// incomplete; the cache's answer is awaited all the same.
  private func relay(
    _ observed: HTTPResponseHandoff.Handed, for head: HTTPRequestHead, on channel: any Channel
  ) async -> Relayed {
    let closing = !head.isKeepAlive || connections.isDraining
    var sent = 0
    do {
      let delimitedByClose = try await Self.stream(
        observed, for: head, closing: closing, to: channel
      ) { sent += $0 }
      return Relayed(
        status: observed.head.status, sent: sent, mustClose: closing || delimitedByClose)
    } catch {
      channel.close(promise: nil)
      return Relayed(status: observed.head.status, sent: sent, mustClose: true)
    }
  }

  /// The cache's answer to `request`, fetched with `handoff`, or a 502/504 when
  /// the upstream fails, with the handoff where a response the cache will not
  /// store left its body to be streamed.
  private func answer(_ request: HTTPRequestKey, handoff streaming: HTTPResponseHandoff) async
    -> (HTTPResponse, HTTPResponseHandoff?)
  {
    do {
      let response = try await HTTPResponseHandoff.$current.withValue(streaming) {
        try await ask(request)
      }
      return (response, streaming)
    } catch HTTPFetcherError.timedOut, HTTPFetcherError.deadlineExceeded {
      return (Self.plain(504), nil)
    } catch {
      // The error only: request targets are cache keys, which stay out of logs.
      failures.report("upstream failed: \(error)")
      return (
        HTTPResponse(
          status: 502, headers: ["Content-Type": "text/plain"],
          body: Data("upstream failed: \(error)\n".utf8)), nil
      )
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
    return URL(string: upstreamBase + pathAndQuery)
  }

  // MARK: - Writing

  /// Writes `response` (or the head and streamed body `streaming` stands for)
  /// to `request` and logs it, or only logs what `relayed` says was written
  /// already; returns whether the connection must close (a streamed body
  /// without a length, to an HTTP/1.0 client, or a relayed one cut short).
  private func send(
    _ response: HTTPResponse, streaming: HTTPResponseHandoff.Handed? = nil,
    relayed: Relayed? = nil, for request: Incoming, closing: Bool, on channel: any Channel,
    outcome: String = "refused"
  ) async throws -> Bool {
    var sent = relayed?.sent ?? 0
    defer {
      counters.add(.requests)
      counters.add(.bytesSent, sent)
      accessLog?(
        Self.logLine(
          request.head, status: relayed?.status ?? response.status, bytes: sent,
          outcome: outcome, duration: .now - request.started))
    }
    if let relayed { return relayed.mustClose }
    if let streaming {
      return try await Self.stream(streaming, for: request.head, closing: closing, to: channel) {
        sent += $0
      }
    }
    try await Self.write(response, for: request.head, closing: closing, to: channel) { sent += $0 }
    return false
  }

  /// Writes the head of `handed` without hop-by-hop fields, then its body as it
  /// arrives from the upstream, with at most ``writeWindow`` bytes waiting for
  /// the socket: the upstream is read only as fast as the client reads. A body
  /// without a length goes chunked (HTTP/1.1) or until the connection closes
  /// (HTTP/1.0; then it returns `true`: the connection must close). The head
  /// is sent at once, before the body's first byte arrives. When the upstream
  /// fails midway it throws, and the connection is to be closed without the
  /// body's end, so the client sees the response is incomplete.
  static func stream(
    _ handed: HTTPResponseHandoff.Handed, for request: HTTPRequestHead, closing: Bool,
    to channel: any Channel, sent: (Int) -> Void
  ) async throws -> Bool {
    var fields = handed.head.headers.removingHopByHop()
    fields.remove(name: HTTPResponseHandoff.field)
    let length = fields["Content-Length"]
    let delimitedByClose = length == nil && request.version == .http1_0
    if closing || delimitedByClose { fields.add(name: "Connection", value: "close") }
    var head = HTTPResponseHead(
      version: delimitedByClose ? .http1_0 : .http1_1,
      status: HTTPResponseStatus(statusCode: handed.head.status))
    for field in fields { head.headers.add(name: field.name, value: field.value) }
    channel.writeAndFlush(HTTPServerResponsePart.head(head), promise: nil)
    var body = BodyWriter(channel: channel, window: writeWindow)
    defer { sent(body.sent) }
    while let chunk = try await handed.body.next() { try await body.write(chunk) }
    try await body.finish()
    return delimitedByClose
  }

  /// Writes `response` without hop-by-hop fields, framed by `Content-Length`
  /// (a HEAD answer keeps the length the upstream gave), its body in chunks of
  /// ``chunkSize``, at most ``writeWindow`` bytes waiting for the socket; returns once every byte
  /// has been handed to the socket, so closing the connection then loses none.
  static func write(
    _ response: HTTPResponse, for request: HTTPRequestHead, closing: Bool, to channel: any Channel,
    sent: (Int) -> Void
  ) async throws {
    var fields = response.headers.removingHopByHop()
    let bodiless =
      request.method == .HEAD || response.status == 304 || response.status == 204
      || (100..<200).contains(response.status)
    if request.method != .HEAD { fields.remove(name: "Content-Length") }
    if !bodiless { fields.add(name: "Content-Length", value: String(response.body.count)) }
    if closing { fields.add(name: "Connection", value: "close") }
    var head = HTTPResponseHead(
      version: .http1_1, status: HTTPResponseStatus(statusCode: response.status))
    for field in fields { head.headers.add(name: field.name, value: field.value) }
    let body = bodiless ? Data() : response.body
    if body.count <= chunkSize {
      // Head, body and end in one turn of the event loop and one flush: one system
      // call for most responses. The writes are awaited only before the connection
      // closes, or while the client is not reading (the socket is full): a client
      // that keeps asking without reading is answered at its own pace.
      let buffer = body.isEmpty ? nil : ByteBuffer(bytes: body)
      let written = channel.eventLoop.makePromise(of: Void.self)
      channel.eventLoop.execute { [head] in
        channel.write(HTTPServerResponsePart.head(head), promise: nil)
        if let buffer {
          channel.write(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
        }
        channel.writeAndFlush(HTTPServerResponsePart.end(nil), promise: written)
      }
      if closing || !channel.isWritable { try await written.futureResult.get() }
      sent(body.count)
      return
    }
    channel.write(HTTPServerResponsePart.head(head), promise: nil)
    var writer = BodyWriter(channel: channel, window: writeWindow)
    defer { sent(writer.sent) }
    var offset = body.startIndex
    while offset < body.endIndex {
      let end = min(offset + chunkSize, body.endIndex)
      try await writer.write(ByteBuffer(bytes: body[offset..<end]))
      offset = end
    }
    try await writer.finish()
  }

  /// A response of `status` with an empty body.
  static func plain(_ status: Int) -> HTTPResponse {
    HTTPResponse(status: status, headers: ["Content-Length": "0"])
  }

  // MARK: - Telling what happened

  /// How a request was answered: its access-log word and counter.
  private static func outcome(
    of head: HTTPRequestHead, response: HTTPResponse, activity: RequestActivity,
    report: HTTPCacheReport
  ) -> (name: String, counter: CachingProxyCounters.Name) {
    if head.method != .GET && head.method != .HEAD { return ("pass", .passes) }
    if report.wasCollapsed { return ("collapsed", .collapsed) }
    if !activity.askedOrigin { return ("hit", .hits) }
    if activity.originFailed && response.headers["Age"] != nil && response.status < 500 {
      return ("stale", .stale)
    }
    return ("miss", .misses)
  }

  /// One access-log line: time, method, target, status, body bytes sent,
  /// outcome (hit, miss, collapsed, stale, pass, refused) and milliseconds taken.
  static func logLine(
    _ head: HTTPRequestHead, status: Int, bytes: Int, outcome: String, duration: Duration
  ) -> String {
    let milliseconds =
      Double(duration.components.seconds) * 1000
      + Double(duration.components.attoseconds) / 1e15
    let target = head.uri.utf8.count > 2048 ? String(head.uri.prefix(2048)) + "…" : head.uri
    return
      "\(Date().ISO8601Format()) \(head.method.rawValue) \(target) \(status) \(bytes) \(outcome) \(String(format: "%.1f", milliseconds))ms"
  }
}

/// The open client connections, and whether each is answering a request: what
/// a drain waits for.
final class ConnectionRegistry: Sendable {
  private struct State {
    var next = 0
    var open: [Int: (channel: any Channel, busy: Bool)] = [:]
    var draining = false
  }

  private let state = Mutex(State())

  var count: Int { state.withLock { $0.open.count } }
  var isDraining: Bool { state.withLock { $0.draining } }

  /// Registers `channel`; `nil` once draining.
  func add(_ channel: any Channel) -> Int? {
    state.withLock { state in
      guard !state.draining else { return nil }
      state.next += 1
      state.open[state.next] = (channel, false)
      return state.next
    }
  }

  func remove(_ id: Int) { _ = state.withLock { $0.open.removeValue(forKey: id) } }

  func setBusy(_ id: Int, _ busy: Bool) {
    let idle = state.withLock { state -> (any Channel)? in
      state.open[id]?.busy = busy
      return state.draining && !busy ? state.open[id]?.channel : nil
    }
    idle?.close(promise: nil)
  }

  /// From now on, idle connections close and new ones are refused; closes the idle ones.
  func startDraining() {
    let idle = state.withLock { state in
      state.draining = true
      return state.open.values.filter { !$0.busy }.map(\.channel)
    }
    for channel in idle { channel.close(promise: nil) }
  }

  func closeAll() {
    let all = state.withLock { $0.open.values.map(\.channel) }
    for channel in all { channel.close(promise: nil) }
  }
}
#endif
