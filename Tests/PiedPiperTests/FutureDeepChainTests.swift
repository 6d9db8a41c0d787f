import Foundation
import PiedPiper
import Testing

/// Runs `body` on a thread of its own and returns what it returns: building and
/// completing a million futures takes seconds (a minute under ThreadSanitizer),
/// which must not hold one of the few threads every async test shares.
private func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    let thread = Thread { continuation.resume(returning: body()) }
    thread.stackSize = 8 << 20
    thread.start()
  }
}

/// Long chains of pending futures complete, cancel and are released without deep recursion:
/// each link of a chain costs heap, never stack.
@Suite("Future: deep chains", .serialized)
struct FutureDeepChainTests {
  /// Links in the longest chains, made of every kind of link.
  static let length = 1_000_000
  /// Links in the other chains: still far beyond what a stack frame or three per
  /// link would survive (recursive delivery crashed at about 4,000 in debug builds).
  static let shortLength = 100_000
  /// Links in the released, mimic and zip chains: a million, but a hundred thousand
  /// under ThreadSanitizer, which runs them 15-20 times slower (about 6 minutes for
  /// these tests at a million) and whose larger frames overflow a recursive path
  /// even sooner.
  static let releasedLength = underThreadSanitizer ? shortLength : length

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
  func completeDeepChain() async {
    let (pendingBefore, value) = await offPool { () -> (Bool, Int?) in
      let promise = Promise<Int>()
      var leaf = promise.future
      for index in 0..<Self.length { leaf = Self.extend(leaf, with: .mixed, index: index) }
      let pending = !leaf.isCompleted
      promise.succeed(0)
      return (pending, leaf.result?.value)
    }
    #expect(pendingBefore)
    #expect(value == Self.length)
  }

  @Test(
    "Completing the source of a long chain of pending links of one kind",
    arguments: Link.singleKinds)
  func completeLongChain(kind: Link) async {
    let value = await offPool { () -> Int? in
      let promise = Promise<Int>()
      var leaf = promise.future
      for index in 0..<Self.shortLength { leaf = Self.extend(leaf, with: kind, index: index) }
      promise.succeed(0)
      return leaf.result?.value
    }
    #expect(value == Self.shortLength)
  }

  @Test("A failure passes down a long chain of pending maps")
  func failDeepChain() async {
    let error = await offPool { () -> TestError? in
      let promise = Promise<Int>()
      var leaf = promise.future
      for _ in 0..<Self.shortLength { leaf = leaf.map { $0 + 1 } }
      promise.fail(TestError(4))
      return leaf.result?.testError
    }
    #expect(error == TestError(4))
  }

  @Test(
    "Cancelling the leaf of a chain of 1,000,000 pending links of every kind cancels the source")
  func cancelDeepChain() async {
    let outcome = await offPool { () -> [Bool] in
      let promise = Promise<Int>()
      let stopped = Counter()
      promise.onCancel { stopped.increment() }
      var leaf = promise.future
      for index in 0..<Self.length { leaf = Self.extend(leaf, with: .mixed, index: index) }
      leaf.cancel()
      return [
        promise.future.result?.isCancelled == true, stopped.value == 1,
        leaf.result?.isCancelled == true,
      ]
    }
    #expect(outcome == [true, true, true])
  }

  @Test(
    "Cancelling the leaf of a long chain of pending links of one kind", arguments: Link.singleKinds)
  func cancelLongChain(kind: Link) async {
    let outcome = await offPool { () -> [Bool] in
      let promise = Promise<Int>()
      let stopped = Counter()
      promise.onCancel { stopped.increment() }
      var leaf = promise.future
      for index in 0..<Self.shortLength { leaf = Self.extend(leaf, with: kind, index: index) }
      leaf.cancel()
      return [
        promise.future.result?.isCancelled == true, stopped.value == 1,
        leaf.result?.isCancelled == true,
      ]
    }
    #expect(outcome == [true, true, true])
  }

  @Test("Cancelling the source of a long chain of pending maps cancels the leaf")
  func cancelDeepChainFromSource() async {
    let cancelled = await offPool { () -> Bool in
      let promise = Promise<Int>()
      var leaf = promise.future
      for _ in 0..<Self.shortLength { leaf = leaf.map { $0 + 1 } }
      promise.cancel()
      return leaf.result?.isCancelled == true
    }
    #expect(cancelled)
  }

  @Test("Along a deep chain, callbacks run in the order they were registered")
  func callbackOrder() async {
    let events = await offPool { () -> [Int] in
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
      return seen.events
    }
    let expected = stride(from: 0, to: Self.shortLength, by: 100).flatMap { [$0, -$0 - 1] }
    #expect(events == expected)
  }

  @Test("A callback added to a future completed by a deep chain runs at once")
  func callbackAfterDeepCompletion() async {
    let events = await offPool { () -> [Int] in
      let promise = Promise<Int>()
      var leaf = promise.future
      for _ in 0..<Self.shortLength { leaf = leaf.flatMap { Future($0 + 1) } }
      promise.succeed(0)
      let seen = Recorder<Int>()
      leaf.onSuccess { seen.record($0) }
      return seen.events
    }
    #expect(events == [Self.shortLength])
  }

  // MARK: - Released without completing

  @Test(
    "Releasing a never-completed chain of 1,000,000 pending links (100,000 under TSan) frees every link",
    arguments: Link.allCases)
  func releaseDeepChain(kind: Link) async {
    let freed = await offPool { () -> [Bool] in
      weak var source: Future<Int>?
      weak var leaf: Future<Int>?
      do {
        let promise = Promise<Int>()
        var end = promise.future
        for index in 0..<Self.releasedLength { end = Self.extend(end, with: kind, index: index) }
        source = promise.future
        leaf = end
      }
      return [source == nil, leaf == nil]
    }
    #expect(freed == [true, true])
  }

  // MARK: - mimic chains

  /// A chain of `length` promises, each mimicking the future before it.
  static func mimicChain(_ length: Int) -> (source: Promise<Int>, leaf: Future<Int>) {
    let source = Promise<Int>()
    var leaf = source.future
    for _ in 0..<length { leaf = Promise<Int>().mimic(leaf).future }
    return (source, leaf)
  }

  @Test("Completing the source of a chain of 1,000,000 mimicking promises (100,000 under TSan)")
  func completeMimicChain() async {
    let value = await offPool { () -> Int? in
      let (source, leaf) = Self.mimicChain(Self.releasedLength)
      source.succeed(7)
      return leaf.result?.value
    }
    #expect(value == 7)
  }

  @Test(
    "Cancelling the leaf of 1,000,000 mimicking promises (100,000 under TSan) cancels the source")
  func cancelMimicChain() async {
    let cancelled = await offPool { () -> Bool in
      let (source, leaf) = Self.mimicChain(Self.releasedLength)
      leaf.cancel()
      return source.future.result?.isCancelled == true
    }
    #expect(cancelled)
  }

  @Test(
    "Releasing 1,000,000 never-completed mimicking promises (100,000 under TSan) frees every link")
  func releaseMimicChain() async {
    let freed = await offPool { () -> [Bool] in
      weak var source: Future<Int>?
      weak var leaf: Future<Int>?
      do {
        let chain = Self.mimicChain(Self.releasedLength)
        source = chain.source.future
        leaf = chain.leaf
      }
      return [source == nil, leaf == nil]
    }
    #expect(freed == [true, true])
  }

  // MARK: - zip chains

  /// A chain of `length` zips, each of a pending future (`firsts`) with the future
  /// before it, summed by a map: the leaf's value is the source's plus the firsts'.
  static func zipChain(_ length: Int) -> (
    source: Promise<Int>, firsts: [Promise<Int>], leaf: Future<Int>
  ) {
    let source = Promise<Int>()
    var firsts: [Promise<Int>] = []
    firsts.reserveCapacity(length)
    var leaf = source.future
    for _ in 0..<length {
      let first = Promise<Int>()
      firsts.append(first)
      leaf = first.future.zip(leaf).map { $0 + $1 }
    }
    return (source, firsts, leaf)
  }

  @Test(
    "Completing a chain of zips: values sum; a failure of the source ends 1,000,000 (TSan: 100,000)"
  )
  func completeZipChain() async {
    let outcome = await offPool { () -> (Int?, TestError?) in
      // Success passes down through the maps' links; the failure below is the deep case.
      let succeeding = Self.zipChain(Self.shortLength)
      for first in succeeding.firsts { first.succeed(1) }
      succeeding.source.succeed(0)
      // The firsts still pending: the failure reaches the leaf through the zips alone.
      let failing = Self.zipChain(Self.releasedLength)
      failing.source.fail(TestError(5))
      return (succeeding.leaf.result?.value, failing.leaf.result?.testError)
    }
    #expect(outcome.0 == Self.shortLength)
    #expect(outcome.1 == TestError(5))
  }

  @Test("Cancelling the leaf of a chain of 1,000,000 zips (100,000 under TSan) cancels the source")
  func cancelZipChain() async {
    let cancelled = await offPool { () -> [Bool] in
      let (source, firsts, leaf) = Self.zipChain(Self.releasedLength)
      leaf.cancel()
      return [
        source.future.result?.isCancelled == true,
        firsts.allSatisfy { $0.future.result?.isCancelled == true },
      ]
    }
    #expect(cancelled == [true, true])
  }

  @Test("Releasing a never-completed chain of 1,000,000 zips (100,000 under TSan) frees every link")
  func releaseZipChain() async {
    let freed = await offPool { () -> [Bool] in
      weak var source: Future<Int>?
      weak var leaf: Future<Int>?
      do {
        let chain = Self.zipChain(Self.releasedLength)
        source = chain.source.future
        leaf = chain.leaf
      }
      return [source == nil, leaf == nil]
    }
    #expect(freed == [true, true])
  }
}
