extension ObservableCacheLevel {
  /// The level's events as an `AsyncSequence`, counted from this call.
  ///
  /// The observation starts when `events()` returns, not when iteration starts: call
  /// it before the task that consumes it, so that no event in between is missed.
  /// The sequence ends when the consuming task is cancelled (the observation stops)
  /// or when the level is released. Events are buffered for a slow consumer as
  /// `bufferingPolicy` says (by default, all of them).
  ///
  /// ```swift
  /// let events = memory.events()  // counts from here
  /// let watcher = Task { for await event in events.prefix(2) { print(event) } }
  /// try await memory.set(value, forKey: "greeting")
  /// try await memory.remove("greeting")
  /// await watcher.value  // after the two events
  /// ```
  public func events(
    bufferingPolicy: AsyncStream<CacheEvent<KeyType>>.Continuation.BufferingPolicy = .unbounded
  ) -> AsyncStream<CacheEvent<KeyType>> {
    stream(bufferingPolicy) { observe($0) }
  }

  /// The events about `key` (and the clears and memory warnings, which concern every
  /// key) as an `AsyncSequence`, counted from this call; it ends like
  /// ``events(bufferingPolicy:)``.
  public func events(
    forKey key: KeyType,
    bufferingPolicy: AsyncStream<CacheEvent<KeyType>>.Continuation.BufferingPolicy = .unbounded
  ) -> AsyncStream<CacheEvent<KeyType>> {
    stream(bufferingPolicy) { observe(key: key, $0) }
  }

  /// A stream fed by the observation `observe` starts.
  private func stream(
    _ bufferingPolicy: AsyncStream<CacheEvent<KeyType>>.Continuation.BufferingPolicy,
    _ observe: (@escaping @Sendable (CacheEvent<KeyType>) -> Void) -> ObservationToken
  ) -> AsyncStream<CacheEvent<KeyType>> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: CacheEvent<KeyType>.self, bufferingPolicy: bufferingPolicy)
    let end = StreamEnd(continuation)
    // The level keeps the callback, and with it `end`, until the observation stops
    // or the level is released: either way `end` goes and finishes the stream.
    let token = observe { event in end.continuation.yield(event) }
    continuation.onTermination = { _ in token.cancel() }
    return stream
  }
}

/// Finishes a stream when the observation that feeds it lets it go.
private final class StreamEnd<Event: Sendable>: Sendable {
  let continuation: AsyncStream<Event>.Continuation

  init(_ continuation: AsyncStream<Event>.Continuation) {
    self.continuation = continuation
  }

  deinit {
    continuation.finish()
  }
}
