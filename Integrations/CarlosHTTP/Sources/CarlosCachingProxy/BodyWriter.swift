#if HTTP
import NIOCore
import NIOHTTP1

/// Writes a response body to a client chunk by chunk, with about `window` bytes
/// waiting for the socket: a client that reads slowly holds that much, and its
/// writer waits. The window is above the channel's high write watermark (64 KiB),
/// and a writer that waits for the socket starts the client's send timeout
/// (`ConnectionGuard.SocketWait`).
/// ``finish()`` returns once every byte has been handed to the socket, so
/// closing the connection then loses none.
struct BodyWriter {
  /// The client's connection.
  let channel: any Channel
  /// How many bytes may wait for the socket before the writer waits.
  let window: Int
  /// The body bytes handed to the socket so far.
  private(set) var sent = 0
  /// The bytes written since the window was last emptied.
  private var waitingBytes = 0

  init(channel: any Channel, window: Int) {
    self.channel = channel
    self.window = window
  }

  /// Writes `chunk`; when the window is full, waits until every chunk in it is
  /// written (one wait per window, not one per chunk: the socket's own buffer
  /// keeps the client reading meanwhile).
  mutating func write(_ chunk: ByteBuffer) async throws {
    let written: EventLoopFuture<Void> = channel.writeAndFlush(
      HTTPServerResponsePart.body(.byteBuffer(chunk)))
    waitingBytes += chunk.readableBytes
    if waitingBytes >= window {
      try await wait(for: written)
      sent += waitingBytes
      waitingBytes = 0
    }
  }

  /// Writes the body's end and waits until it, and so every chunk, is written.
  mutating func finish() async throws {
    try await wait(for: channel.writeAndFlush(HTTPServerResponsePart.end(nil)))
    sent += waitingBytes
    waitingBytes = 0
  }

  /// Waits for `written`, the client's send timeout running meanwhile
  /// (`ConnectionGuard.SocketWait`).
  private func wait(for written: EventLoopFuture<Void>) async throws {
    channel.triggerUserOutboundEvent(ConnectionGuard.SocketWait.started, promise: nil)
    defer { channel.triggerUserOutboundEvent(ConnectionGuard.SocketWait.ended, promise: nil) }
    try await written.get()
  }
}
#endif
