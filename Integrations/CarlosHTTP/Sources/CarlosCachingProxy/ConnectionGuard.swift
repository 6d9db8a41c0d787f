#if HTTP
import NIOCore
import NIOHTTP1

/// Closes a client connection that is too slow or too idle, and answers a
/// request the parser refuses: the timeouts of ``CachingProxyLimits`` for one
/// connection, kept on its event loop.
///
/// A connection waits for a request's head (``CachingProxyLimits/headerTimeout``
/// for the first, ``CachingProxyLimits/idleTimeout`` after a response), then for
/// each part of its body (``CachingProxyLimits/bodyTimeout``), then answers
/// with no read timeout. While the socket cannot take more bytes, or a body
/// writer waits for it to take its window (`SocketWait`), the client has
/// ``CachingProxyLimits/sendTimeout`` to read them.
final class ConnectionGuard: ChannelDuplexHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  /// What closed a connection early.
  enum Timeout: Sendable {
    case header, idle, body, send
  }

  private enum Phase {
    case awaitingHead(first: Bool)
    case readingBody
    case responding
  }

  private let limits: CachingProxyLimits
  private let timedOut: @Sendable (Timeout) -> Void
  private var phase = Phase.awaitingHead(first: true)
  /// The read timeout armed now, if any: what it is and when it expires.
  private var readDeadline: (kind: Timeout, at: NIODeadline)?
  /// The timer that checks `readDeadline`, and when it fires. Arming a later
  /// deadline leaves it as it is (it reschedules itself when it fires early), so
  /// a request costs no timer of its own.
  private var readTimer: (task: Scheduled<Void>, at: NIODeadline)?
  private var sendTimer: Scheduled<Void>?
  /// Whether a body writer waits for the socket to take what it wrote.
  private var writerWaits = false

  /// What a body writer tells the guard while it waits for the socket to take
  /// its window: the client has the send timeout to take it, even when the
  /// bytes still waiting are too few to make the channel unwritable.
  enum SocketWait: Sendable {
    case started, ended
  }

  /// A guard holding a connection to `limits`; `timedOut` hears of each close.
  init(limits: CachingProxyLimits, timedOut: @escaping @Sendable (Timeout) -> Void) {
    self.limits = limits
    self.timedOut = timedOut
  }

  func handlerAdded(context: ChannelHandlerContext) {
    arm(.header, after: limits.headerTimeout, context: context)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    cancelTimers()
  }

  func channelInactive(context: ChannelHandlerContext) {
    cancelTimers()
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head, .body:
      phase = .readingBody
      arm(.body, after: limits.bodyTimeout, context: context)
    case .end:
      phase = .responding
      readDeadline = nil
      context.triggerUserOutboundEvent(RequestLineLimit.NextRequest(), promise: nil)
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .end = unwrapOutboundIn(data), case .responding = phase {
      phase = .awaitingHead(first: false)
      arm(.idle, after: limits.idleTimeout, context: context)
    }
    context.write(data, promise: promise)
  }

  func flush(context: ChannelHandlerContext) {
    context.flush()
    if !context.channel.isWritable { armSendTimer(context: context) }
  }

  func triggerUserOutboundEvent(
    context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?
  ) {
    guard let wait = event as? SocketWait else {
      return context.triggerUserOutboundEvent(event, promise: promise)
    }
    writerWaits = wait == .started
    if writerWaits {
      armSendTimer(context: context)
    } else if context.channel.isWritable {
      sendTimer?.cancel()
      sendTimer = nil
    }
    promise?.succeed(())
  }

  func channelWritabilityChanged(context: ChannelHandlerContext) {
    if context.channel.isWritable, !writerWaits {
      sendTimer?.cancel()
      sendTimer = nil
    } else if !context.channel.isWritable {
      armSendTimer(context: context)
    }
    context.fireChannelWritabilityChanged()
  }

  /// A request the parser refuses gets a 400 (a 431 when its header fields are
  /// too large) and the connection is closed; other errors go on.
  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard let parserError = error as? HTTPParserError else {
      context.fireErrorCaught(error)
      return
    }
    cancelTimers()
    if case .responding = phase {
      context.close(promise: nil)
      return
    }
    let status: HTTPResponseStatus =
      parserError == .headerOverflow ? .requestHeaderFieldsTooLarge : .badRequest
    var head = HTTPResponseHead(version: .http1_1, status: status)
    head.headers.add(name: "Content-Length", value: "0")
    head.headers.add(name: "Connection", value: "close")
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
      context.close(promise: nil)
    }
  }

  // MARK: - Timers

  private func arm(_ kind: Timeout, after delay: Duration, context: ChannelHandlerContext) {
    let at = NIODeadline.now() + .init(delay)
    readDeadline = (kind, at)
    if let timer = readTimer {
      guard at < timer.at else { return }
      timer.task.cancel()
    }
    scheduleReadTimer(at: at, context: context)
  }

  private func scheduleReadTimer(at: NIODeadline, context: ChannelHandlerContext) {
    let task = context.eventLoop.assumeIsolated().scheduleTask(deadline: at) { [self] in
      readTimer = nil
      guard let (kind, deadline) = readDeadline else { return }
      guard NIODeadline.now() >= deadline else {
        return scheduleReadTimer(at: deadline, context: context)
      }
      timedOut(kind)
      context.close(promise: nil)
    }
    readTimer = (task, at)
  }

  private func armSendTimer(context: ChannelHandlerContext) {
    guard sendTimer == nil else { return }
    sendTimer = context.eventLoop.assumeIsolated().scheduleTask(in: .init(limits.sendTimeout)) {
      [timedOut] in
      timedOut(.send)
      context.close(promise: nil)
    }
  }

  private func cancelTimers() {
    readDeadline = nil
    readTimer?.task.cancel()
    readTimer = nil
    sendTimer?.cancel()
    sendTimer = nil
  }
}
#endif
