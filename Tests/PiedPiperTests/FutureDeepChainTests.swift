import PiedPiper
import Testing

/// Long chains of pending futures complete and cancel without deep recursion:
/// each link of a chain costs heap, never stack.
@Suite("Future: deep chains", .serialized)
struct FutureDeepChainTests {
  /// Links in the longest chains, made of every kind of link.
  static let length = 1_000_000
  /// Links in the other chains: still far beyond what a stack frame or three per
  /// link would survive (recursive delivery crashed at about 4,000 in debug builds).
  static let shortLength = 100_000

  /// The kinds of link a chain is made of.
  enum Link: String, CaseIterable, Sendable {
    case map, flatMapFuture, flatMapResult, recover, filter, mixed

    /// Every kind but `mixed`.
    static let singleKinds: [Link] = [.map, .flatMapFuture, .flatMapResult, .recover, .filter]
  }

  /// Extends `future` (whose value is the number of links so far) by one link of `kind`.
  static func extend(_ future: Future<Int>, with kind: Link, index: Int) -> Future<Int> {
    switch kind {
    case .map: return future.map { $0 + 1 }
    case .flatMapFuture: return future.flatMap { Future($0 + 1) }
    case .flatMapResult: return future.flatMap { FutureResult<Int>.success($0 + 1) }
    case .recover: return future.recover { _ in Future(-1) }.map { $0 + 1 }
    case .filter: return future.filter { $0 >= 0 }.map { $0 + 1 }
    case .mixed:
      let kinds = Link.singleKinds
      return extend(future, with: kinds[index % kinds.count], index: index)
    }
  }

  @Test("Completing the source of a chain of 1,000,000 pending links of every kind")
  func completeDeepChain() {
    let promise = Promise<Int>()
    var leaf = promise.future
    for index in 0..<Self.length { leaf = Self.extend(leaf, with: .mixed, index: index) }
    #expect(!leaf.isCompleted)
    promise.succeed(0)
    #expect(leaf.result?.value == Self.length)
  }

  @Test(
    "Completing the source of a long chain of pending links of one kind",
    arguments: Link.singleKinds)
  func completeLongChain(kind: Link) {
    let promise = Promise<Int>()
    var leaf = promise.future
    for index in 0..<Self.shortLength { leaf = Self.extend(leaf, with: kind, index: index) }
    promise.succeed(0)
    #expect(leaf.result?.value == Self.shortLength)
  }

  @Test("A failure passes down a long chain of pending maps")
  func failDeepChain() {
    let promise = Promise<Int>()
    var leaf = promise.future
    for _ in 0..<Self.shortLength { leaf = leaf.map { $0 + 1 } }
    promise.fail(TestError(4))
    #expect(leaf.result?.testError == TestError(4))
  }

  @Test(
    "Cancelling the leaf of a chain of 1,000,000 pending links of every kind cancels the source")
  func cancelDeepChain() {
    let promise = Promise<Int>()
    let stopped = Counter()
    promise.onCancel { stopped.increment() }
    var leaf = promise.future
    for index in 0..<Self.length { leaf = Self.extend(leaf, with: .mixed, index: index) }
    leaf.cancel()
    #expect(promise.future.result?.isCancelled == true)
    #expect(stopped.value == 1)
    #expect(leaf.result?.isCancelled == true)
  }

  @Test(
    "Cancelling the leaf of a long chain of pending links of one kind", arguments: Link.singleKinds)
  func cancelLongChain(kind: Link) {
    let promise = Promise<Int>()
    let stopped = Counter()
    promise.onCancel { stopped.increment() }
    var leaf = promise.future
    for index in 0..<Self.shortLength { leaf = Self.extend(leaf, with: kind, index: index) }
    leaf.cancel()
    #expect(promise.future.result?.isCancelled == true)
    #expect(stopped.value == 1)
    #expect(leaf.result?.isCancelled == true)
  }

  @Test("Cancelling the source of a long chain of pending maps cancels the leaf")
  func cancelDeepChainFromSource() {
    let promise = Promise<Int>()
    var leaf = promise.future
    for _ in 0..<Self.shortLength { leaf = leaf.map { $0 + 1 } }
    promise.cancel()
    #expect(leaf.result?.isCancelled == true)
  }

  @Test("Along a deep chain, callbacks run in the order they were registered")
  func callbackOrder() {
    let promise = Promise<Int>()
    let seen = Recorder<Int>()
    var leaf = promise.future
    for index in 0..<Self.shortLength {
      leaf = leaf.map { $0 + 1 }
      if index % 100 == 0 {
        leaf.onSuccess { _ in seen.record(index) }
        leaf.onCompletion { _ in seen.record(-index - 1) }
      }
    }
    promise.succeed(0)
    let expected = stride(from: 0, to: Self.shortLength, by: 100).flatMap { [$0, -$0 - 1] }
    #expect(seen.events == expected)
  }

  @Test("A callback added to a future completed by a deep chain runs at once")
  func callbackAfterDeepCompletion() {
    let promise = Promise<Int>()
    var leaf = promise.future
    for _ in 0..<Self.shortLength { leaf = leaf.flatMap { Future($0 + 1) } }
    promise.succeed(0)
    let seen = Recorder<Int>()
    leaf.onSuccess { seen.record($0) }
    #expect(seen.events == [Self.shortLength])
  }
}
