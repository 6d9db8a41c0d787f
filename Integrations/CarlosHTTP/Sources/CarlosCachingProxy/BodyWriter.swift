import NIOCore
import NIOHTTP1

/// Writes a response body to a client chunk by chunk, with at most `window`
/// chunks waiting for the socket: a client that reads slowly holds that much,
/// and its writer waits. ``finish()`` returns once every byte has been handed
/// to the socket, so closing the connection then loses none.
struct BodyWriter {
  /// The client's connection.
  let channel: any Channel
  /// How many chunks may wait for the socket.
  let window: Int
  /// The body bytes handed to the socket so far.
  private(set) var sent = 0
  /// The chunks written since the window was last emptied, and their bytes.
  private var waitingChunks = 0
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
    waitingChunks += 1
    waitingBytes += chunk.readableBytes
    if waitingChunks >= window {
      try await written.get()
      sent += waitingBytes
      waitingChunks = 0
      waitingBytes = 0
    }
  }

  /// Writes the body's end and waits until it, and so every chunk, is written.
  mutating func finish() async throws {
    try await channel.writeAndFlush(HTTPServerResponsePart.end(nil)).get()
    sent += waitingBytes
    waitingChunks = 0
    waitingBytes = 0
  }
}
