#if HTTP
import NIOCore
import Synchronization

/// A copy of a response body that an ``HTTPFetcher`` is collecting, passed on
/// chunk by chunk as it arrives to the one ``HTTPBodyReader`` observing it (see
/// ``HTTPResponseHandoff/init(shouldStream:shouldObserve:whenObserved:)``).
///
/// The fetcher never waits for the reader, so a slow reader does not hold up the
/// body its caller is waiting for: the chunks not read yet are held, at most
/// the body the fetcher collects, which is bounded by its
/// ``HTTPFetcher/maximumResponseSize``. When the body passes that limit the
/// fetcher stops collecting and the reader takes the rest straight from the
/// upstream, at its own pace. A reader that goes away frees what is held, and
/// nothing more is kept for it.
final class HTTPResponseTee: Sendable {
  /// How the body ended, for the reader.
  private enum Ending {
    /// Every chunk was appended.
    case finished
    /// The transfer failed: the body is incomplete.
    case failed(any Error)
    /// The rest of the body is read from this reader.
    case continued(HTTPBodyReader)
  }

  private struct State {
    var chunks = CircularBuffer<ByteBuffer>()
    var ending: Ending?
    /// The reader waiting for the next chunk or the end.
    var waiting: CheckedContinuation<Void, any Error>?
    /// Whether the reader went away.
    var abandoned = false
  }

  private let state = Mutex(State())

  // MARK: - The fetcher's side

  /// Passes `chunk` on to the reader.
  func append(_ chunk: ByteBuffer) {
    let waiting = state.withLock { state -> CheckedContinuation<Void, any Error>? in
      guard !state.abandoned, state.ending == nil else { return nil }
      state.chunks.append(chunk)
      return state.waiting.take()
    }
    waiting?.resume()
  }

  /// Ends the body: every chunk was appended.
  func finish() { end(.finished) }

  /// Ends the body with `error`, unless it ended already.
  func fail(_ error: any Error) { end(.failed(error)) }

  /// Hands the rest of the body over to `rest`, which the reader reads after the
  /// chunks appended so far.
  func `continue`(with rest: HTTPBodyReader) { end(.continued(rest)) }

  private func end(_ ending: Ending) {
    let waiting = state.withLock { state -> CheckedContinuation<Void, any Error>? in
      guard !state.abandoned, state.ending == nil else { return nil }
      state.ending = ending
      return state.waiting.take()
    }
    waiting?.resume()
  }

  // MARK: - The reader's side

  /// What the reader gets next.
  private enum Step {
    case chunk(ByteBuffer)
    case end
    case failure(any Error)
    case rest(HTTPBodyReader)
    case wait
  }

  /// The next chunk, or `nil` at the end; throws when the transfer failed, or
  /// when the reader is cancelled while it waits.
  func next() async throws -> ByteBuffer? {
    while true {
      switch step() {
      case .chunk(let chunk): return chunk
      case .end: return nil
      case .failure(let error): throw error
      case .rest(let rest): return try await rest.next()
      case .wait: try await waitForMore()
      }
    }
  }

  /// The reader went away: what is held is freed, and nothing more is kept.
  func abandon() {
    let waiting = state.withLock { state -> CheckedContinuation<Void, any Error>? in
      state.abandoned = true
      state.chunks.removeAll()
      state.ending = nil
      return state.waiting.take()
    }
    waiting?.resume(throwing: CancellationError())
  }

  private func step() -> Step {
    state.withLock { state in
      if let chunk = state.chunks.popFirst() { return .chunk(chunk) }
      switch state.ending {
      case nil: return .wait
      case .finished: return .end
      case .failed(let error): return .failure(error)
      case .continued(let rest): return .rest(rest)
      }
    }
  }

  private func waitForMore() async throws {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let ready = state.withLock { state -> Result<Void, any Error>? in
          if !state.chunks.isEmpty || state.ending != nil { return .success(()) }
          if state.abandoned || Task.isCancelled { return .failure(CancellationError()) }
          state.waiting = continuation
          return nil
        }
        if let ready { continuation.resume(with: ready) }
      }
    } onCancel: {
      state.withLock { $0.waiting.take() }?.resume(throwing: CancellationError())
    }
  }
}
#endif
