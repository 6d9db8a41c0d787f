#if HTTP
import NIOCore

/// What a connection above ``CachingProxyLimits/maximumConnections`` gets: a 503
/// as soon as it opens, then the connection closes; whatever the client sends
/// is dropped.
final class RefusedConnection: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer

  private static let answer =
    "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"

  private var answered = false

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { answer(context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    answer(context)
    context.fireChannelActive()
  }

  private func answer(_ context: ChannelHandlerContext) {
    guard !answered else { return }
    answered = true
    context.writeAndFlush(NIOAny(ByteBuffer(string: Self.answer))).assumeIsolated().whenComplete {
      _ in
      context.close(promise: nil)
    }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
#endif
