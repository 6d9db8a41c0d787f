import Foundation

/// Carlos 0.x's `Operation` that asks a level for a key when it runs, and hands the
/// outcome to a promise created beforehand (the "decoy" a caller already holds).
///
/// New code needs no operation: a get starts at once and its future (or `try await`)
/// carries the outcome; queue work with `dispatch(_:)` or a task. This type keeps code
/// written for `OperationQueue`-driven requests compiling and working.
///
/// ```swift
/// let decoy = Promise<Data>()
/// queue.addOperation(DeferredResultOperation(decoyRequest: decoy, key: "k", cache: cache))
/// ```
public final class DeferredResultOperation<Level: CacheLevel>: Operation, @unchecked Sendable {
  // Unchecked: every stored property is an immutable `Sendable` value; `Operation`'s
  // own state is guarded by Foundation.
  private let key: Level.KeyType
  private let cache: Level
  private let decoy: Promise<Level.OutputType>

  /// An operation that, when run, gets `key` from `cache` and completes `decoyRequest`
  /// like the get.
  public init(decoyRequest: Promise<Level.OutputType>, key: Level.KeyType, cache: Level) {
    self.decoy = decoyRequest
    self.key = key
    self.cache = cache
    super.init()
  }

  /// Cancels the operation and the decoy (when the get has not completed it yet).
  public override func cancel() {
    super.cancel()
    decoy.cancel()
  }

  /// Gets the key and waits, on the operation's thread, until the decoy is completed.
  public override func main() {
    if isCancelled { return }
    let done = DispatchSemaphore(value: 0)
    let request: Future<Level.OutputType> = cache.get(key)
    let decoy = self.decoy
    request.onCompletion { result in
      decoy.complete(result)
      done.signal()
    }
    done.wait()
  }
}
