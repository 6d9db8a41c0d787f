#if Hummingbird
import Foundation
import Hummingbird

/// A response body writer that keeps every byte written to it, for a response
/// the cache stores.
final class BodyCollector: ResponseBodyWriter {
  /// The bytes written so far.
  private(set) var bytes = Data()

  func write(_ buffer: ByteBuffer) async throws {
    bytes.append(contentsOf: buffer.readableBytesView)
  }

  func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
#endif
