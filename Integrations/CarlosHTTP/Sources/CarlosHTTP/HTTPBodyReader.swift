#if HTTP
import AsyncHTTPClient
import NIOCore

/// The body of a response handed over or observed through an
/// ``HTTPResponseHandoff``, read chunk by chunk as it arrives. A handed-over body
/// comes from the upstream, which sends more only as chunks are taken, so
/// memory stays bounded at any size; an observed one is a copy of the body the
/// fetcher collects (see ``HTTPResponseHandoff/init(shouldStream:shouldObserve:whenObserved:)``). One reader at a
/// time; releasing the reader lets the rest of the body go.
public final class HTTPBodyReader: @unchecked Sendable {
  // Unchecked: the iterator is used by one task at a time, as documented; the
  // handoff passes the reader from the fetching task to the one writing the body.
  private var chunks: HTTPClientResponse.Body.AsyncIterator?
  private let tee: HTTPResponseTee?
  private var prefix: ByteBuffer?

  /// A reader of `chunks` from the upstream, after `prefix` when it has bytes.
  init(_ chunks: HTTPClientResponse.Body.AsyncIterator, prefix: ByteBuffer?) {
    self.chunks = chunks
    tee = nil
    self.prefix = prefix.flatMap { $0.readableBytes > 0 ? $0 : nil }
  }

  /// A reader of the copy `tee` of a body being collected.
  init(observing tee: HTTPResponseTee) {
    chunks = nil
    self.tee = tee
  }

  deinit { tee?.abandon() }

  /// The next chunk of the body, or `nil` at its end; throws when the transfer
  /// fails (the body is then incomplete).
  public func next() async throws -> ByteBuffer? {
    if let first = prefix {
      prefix = nil
      return first
    }
    if let tee { return try await tee.next() }
    do {
      return try await chunks?.next()
    } catch {
      throw HTTPFetcher.mapped(error, connecting: false)
    }
  }
}
#endif
