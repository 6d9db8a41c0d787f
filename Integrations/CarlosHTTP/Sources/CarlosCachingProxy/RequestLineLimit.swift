#if HTTP
import NIOCore

/// Answers a request line far longer than ``CachingProxyLimits/maximumTargetLength``
/// with a 414 as its bytes arrive, before the HTTP parser would refuse it as
/// oversized header fields (a 431).
///
/// It sits in front of the parser and watches the first line of the first
/// request on a connection, and of each request after ``NextRequest`` says the
/// one before was read whole. (A request pipelined behind another in the same
/// read is not watched; the parser's 431 still refuses it.) A line a little over
/// the limit goes on to the parser, and the server answers its target with 414.
final class RequestLineLimit: ChannelDuplexHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  typealias OutboundIn = IOData
  typealias OutboundOut = IOData

  /// The outbound event that says a request was read whole, so that the next
  /// bytes start a request line.
  struct NextRequest: Sendable {}

  /// Room for the method, the version and the spaces around the target.
  static let lineOverhead = 64

  private let limit: Int
  private var watching = true
  private var lineLength = 0
  private var refused = false

  /// A watch refusing request lines longer than `maximumTargetLength` plus
  /// ``lineOverhead``.
  init(maximumTargetLength: Int) {
    limit = maximumTargetLength + Self.lineOverhead
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !refused else { return }
    let buffer = unwrapInboundIn(data)
    if watching {
      let bytes = buffer.readableBytesView
      if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
        lineLength += newline - bytes.startIndex
        watching = false
      } else {
        lineLength += bytes.count
      }
      if lineLength > limit { return refuse(context: context) }
    }
    context.fireChannelRead(data)
  }

  func triggerUserOutboundEvent(
    context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?
  ) {
    guard event is NextRequest else {
      return context.triggerUserOutboundEvent(event, promise: promise)
    }
    watching = true
    lineLength = 0
    promise?.succeed(())
  }

  private func refuse(context: ChannelHandlerContext) {
    refused = true
    let answer =
      "HTTP/1.1 414 URI Too Long\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    let bytes = context.channel.allocator.buffer(string: answer)
    context.writeAndFlush(wrapOutboundOut(.byteBuffer(bytes))).assumeIsolated().whenComplete {
      _ in context.close(promise: nil)
    }
  }
}
#endif
