import AsyncHTTPClient
import NIOCore

/// The body of a response handed over by an ``HTTPFetcher`` (see
/// ``HTTPResponseHandoff``), read chunk by chunk as it arrives: the upstream
/// sends more only as chunks are taken, so memory stays bounded at any size.
/// One reader at a time.
public final class HTTPBodyReader: @unchecked Sendable {
  // Unchecked: the iterator is used by one task at a time, as documented; the
  // handoff passes the reader from the fetching task to the one writing the body.
  private var chunks: HTTPClientResponse.Body.AsyncIterator
  private var prefix: ByteBuffer?

  init(_ chunks: HTTPClientResponse.Body.AsyncIterator, prefix: ByteBuffer?) {
    self.chunks = chunks
    self.prefix = prefix.flatMap { $0.readableBytes > 0 ? $0 : nil }
  }

  /// The next chunk of the body, or `nil` at its end; throws when the transfer
  /// fails (the body is then incomplete).
  public func next() async throws -> ByteBuffer? {
    if let first = prefix {
      prefix = nil
      return first
    }
    do {
      return try await chunks.next()
    } catch {
      throw HTTPFetcher.mapped(error, connecting: false)
    }
  }
}
