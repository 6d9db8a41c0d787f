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
  private var waiting: [(written: EventLoopFuture<Void>, count: Int)] = []

  init(channel: any Channel, window: Int) {
    self.channel = channel
    self.window = window
  }

  /// Writes `chunk`, first waiting for the oldest chunk when the window is full.
  mutating func write(_ chunk: ByteBuffer) async throws {
    waiting.append(
      (channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(chunk))), chunk.readableBytes))
    if waiting.count >= window {
      let oldest = waiting.removeFirst()
      try await oldest.written.get()
      sent += oldest.count
    }
  }

  /// Writes the body's end and waits until it, and so every chunk, is written.
  mutating func finish() async throws {
    try await channel.writeAndFlush(HTTPServerResponsePart.end(nil)).get()
    sent += waiting.reduce(0) { $0 + $1.count }
    waiting = []
  }
}
