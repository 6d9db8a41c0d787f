import PiedPiper
import Testing

/// Applies `transform` to a source with `result`: a source that already has it
/// (`pending == false`) or one that gets it after `transform` ran.
private func derive<T: Sendable, U: Sendable>(
  _ result: FutureResult<T>,
  pending: Bool,
  _ transform: (Future<T>) -> Future<U>
) -> Future<U> {
  guard pending else { return transform(Future(result: result)) }
  let promise = Promise<T>()
  let derived = transform(promise.future)
  promise.complete(result)
  return derived
}

@Suite("Future: transformations")
struct FutureTransformTests {
  static let completedOrPending = [false, true]

  // MARK: map

  @Test("map transforms the value", arguments: completedOrPending)
  func mapValue(pending: Bool) {
    let derived = derive(.success(3), pending: pending) { $0.map { "\($0 * 2)" } }
    #expect(derived.result?.value == "6")
  }

  @Test("map with a throwing closure fails with the thrown error", arguments: completedOrPending)
  func mapThrows(pending: Bool) {
    let derived = derive(.success(3), pending: pending) { (future: Future<Int>) -> Future<Int> in
      future.map { (_: Int) throws -> Int in throw TestError(8) }
    }
    #expect(derived.result?.testError == TestError(8))
  }

  @Test(
    "map passes failures and cancellation through without calling the closure",
    arguments: completedOrPending)
  func mapPassesThrough(pending: Bool) {
    let calls = Counter()
    let failed = derive(.error(TestError(1)), pending: pending) {
      (future: Future<Int>) -> Future<Int> in
      future.map { calls.increment() + $0 }
    }
    let cancelled = derive(.cancelled, pending: pending) { (future: Future<Int>) -> Future<Int> in
      future.map { calls.increment() + $0 }
    }
    #expect(failed.result?.testError == TestError(1))
    #expect(cancelled.result?.isCancelled == true)
    #expect(calls.value == 0)
  }

  @Test("map of a pending source stays pending")
  func mapPending() {
    let promise = Promise<Int>()
    let derived = promise.future.map { $0 + 1 }
    #expect(!derived.isCompleted)
    promise.succeed(1)
    #expect(derived.result?.value == 2)
  }

  // MARK: flatMap to Future

  @Test("flatMap to a Future continues with that future", arguments: completedOrPending)
  func flatMapFuture(pending: Bool) {
    let inner = Promise<String>()
    let derived = derive(.success(4), pending: pending) { (future: Future<Int>) -> Future<String> in
      future.flatMap { (value: Int) -> Future<String> in inner.future.map { "\(value)\($0)" } }
    }
    #expect(!derived.isCompleted)
    inner.succeed("!")
    #expect(derived.result?.value == "4!")
  }

  @Test("flatMap to a Future takes the inner failure or cancellation", arguments: [false, true])
  func flatMapFutureInnerOutcome(fail: Bool) {
    let inner = Promise<Int>()
    let derived = Future(1).flatMap { (_: Int) -> Future<Int> in inner.future }
    if fail { inner.fail(TestError(6)) } else { inner.cancel() }
    #expect(derived.result?.testError == (fail ? TestError(6) : nil))
    #expect(derived.result?.isCancelled == !fail)
  }

  @Test(
    "flatMap to a Future passes failures and cancellation through", arguments: completedOrPending)
  func flatMapFuturePassesThrough(pending: Bool) {
    let calls = Counter()
    let transform: @Sendable (Int) -> Future<Int> = { _ in Future(calls.increment()) }
    let failed = derive(.error(TestError(2)), pending: pending) { $0.flatMap(transform) }
    let cancelled = derive(.cancelled, pending: pending) { $0.flatMap(transform) }
    #expect(failed.result?.testError == TestError(2))
    #expect(cancelled.result?.isCancelled == true)
    #expect(calls.value == 0)
  }

  // MARK: flatMap to FutureResult

  @Test("flatMap to a FutureResult completes with that result", arguments: completedOrPending)
  func flatMapResult(pending: Bool) {
    let succeeded = derive(.success(5), pending: pending) { (future: Future<Int>) -> Future<Int> in
      future.flatMap { (value: Int) -> FutureResult<Int> in .success(value * 3) }
    }
    let failed = derive(.success(5), pending: pending) { (future: Future<Int>) -> Future<Int> in
      future.flatMap { (_: Int) -> FutureResult<Int> in .error(TestError(5)) }
    }
    let cancelled = derive(.success(5), pending: pending) { (future: Future<Int>) -> Future<Int> in
      future.flatMap { (_: Int) -> FutureResult<Int> in .cancelled }
    }
    let passed = derive(.error(TestError(1)), pending: pending) {
      (future: Future<Int>) -> Future<Int> in
      future.flatMap { (value: Int) -> FutureResult<Int> in .success(value) }
    }
    #expect(succeeded.result?.value == 15)
    #expect(failed.result?.testError == TestError(5))
    #expect(cancelled.result?.isCancelled == true)
    #expect(passed.result?.testError == TestError(1))
  }

  // MARK: flatMap to Optional

  @Test("flatMap to an Optional unwraps, or fails with valueMissing", arguments: completedOrPending)
  func flatMapOptional(pending: Bool) {
    let present = derive(.success("12"), pending: pending) {
      (future: Future<String>) -> Future<Int> in
      future.flatMap { (text: String) -> Int? in Int(text) }
    }
    let missing = derive(.success("twelve"), pending: pending) {
      (future: Future<String>) -> Future<Int> in
      future.flatMap { (text: String) -> Int? in Int(text) }
    }
    let cancelled = derive(.cancelled, pending: pending) {
      (future: Future<String>) -> Future<Int> in
      future.flatMap { (text: String) -> Int? in Int(text) }
    }
    #expect(present.result?.value == 12)
    #expect(missing.result?.futureError == .valueMissing)
    #expect(cancelled.result?.isCancelled == true)
  }

  // MARK: filter

  @Test("filter keeps or rejects the value", arguments: completedOrPending)
  func filterSync(pending: Bool) {
    let kept = derive(.success(4), pending: pending) { $0.filter { $0.isMultiple(of: 2) } }
    let rejected = derive(.success(5), pending: pending) { $0.filter { $0.isMultiple(of: 2) } }
    let failed = derive(FutureResult<Int>.error(TestError(1)), pending: pending) {
      $0.filter { _ in true }
    }
    let cancelled = derive(FutureResult<Int>.cancelled, pending: pending) {
      $0.filter { _ in true }
    }
    #expect(kept.result?.value == 4)
    #expect(rejected.result?.futureError == .filterNotSatisfied)
    #expect(failed.result?.testError == TestError(1))
    #expect(cancelled.result?.isCancelled == true)
  }

  @Test(
    "filter with a Future<Bool> keeps or rejects the value once it completes",
    arguments: completedOrPending)
  func filterAsync(pending: Bool) {
    let decision = Promise<Bool>()
    let kept = derive(.success(4), pending: pending) { (future: Future<Int>) -> Future<Int> in
      future.filter { (_: Int) -> Future<Bool> in decision.future }
    }
    #expect(!kept.isCompleted)
    decision.succeed(true)
    #expect(kept.result?.value == 4)

    let rejected = derive(.success(4), pending: pending) { (future: Future<Int>) -> Future<Int> in
      future.filter { (_: Int) -> Future<Bool> in Future(false) }
    }
    #expect(rejected.result?.futureError == .filterNotSatisfied)
  }

  @Test("filter with a Future<Bool> takes the predicate's failure or cancellation")
  func filterAsyncPredicateFails() {
    let failed = Future(1).filter { (_: Int) -> Future<Bool> in Future(TestError(3)) }
    let cancelled = Future(1).filter { (_: Int) -> Future<Bool> in Future(result: .cancelled) }
    #expect(failed.result?.testError == TestError(3))
    #expect(cancelled.result?.isCancelled == true)
  }

  // MARK: recover

  @Test("recover with a value replaces a failure", arguments: completedOrPending)
  func recoverValue(pending: Bool) {
    let recovered = derive(FutureResult<Int>.error(TestError(1)), pending: pending) {
      $0.recover(9)
    }
    let untouched = derive(.success(2), pending: pending) { $0.recover(9) }
    let cancelled = derive(FutureResult<Int>.cancelled, pending: pending) { $0.recover(9) }
    #expect(recovered.result?.value == 9)
    #expect(untouched.result?.value == 2)
    #expect(cancelled.result?.isCancelled == true)
  }

  @Test("recover with a closure gets the error", arguments: completedOrPending)
  func recoverClosure(pending: Bool) {
    let calls = Counter()
    let handler: @Sendable (any Error) -> Int = { error in
      calls.increment()
      return ((error as? TestError)?.code ?? 0) * 10
    }
    let recovered = derive(FutureResult<Int>.error(TestError(4)), pending: pending) {
      $0.recover(handler)
    }
    let untouched = derive(.success(2), pending: pending) { $0.recover(handler) }
    let cancelled = derive(FutureResult<Int>.cancelled, pending: pending) { $0.recover(handler) }
    #expect(recovered.result?.value == 40)
    #expect(untouched.result?.value == 2)
    #expect(cancelled.result?.isCancelled == true)
    #expect(calls.value == 1)
  }

  @Test("recover with a future continues with that future", arguments: completedOrPending)
  func recoverFuture(pending: Bool) {
    let inner = Promise<Int>()
    let recovered = derive(.error(TestError(4)), pending: pending) {
      (future: Future<Int>) -> Future<Int> in
      future.recover { (_: any Error) -> Future<Int> in inner.future }
    }
    #expect(!recovered.isCompleted)
    inner.succeed(44)
    #expect(recovered.result?.value == 44)

    let failedAgain = derive(.error(TestError(4)), pending: pending) {
      (future: Future<Int>) -> Future<Int> in
      future.recover { (_: any Error) -> Future<Int> in Future(TestError(5)) }
    }
    #expect(failedAgain.result?.testError == TestError(5))

    let cancelled = derive(.cancelled, pending: pending) { (future: Future<Int>) -> Future<Int> in
      future.recover { (_: any Error) -> Future<Int> in Future(0) }
    }
    #expect(cancelled.result?.isCancelled == true)
  }

  // MARK: zip

  @Test("zip pairs both values, whichever completes first", arguments: [false, true])
  func zipValues(otherFirst: Bool) {
    let first = Promise<Int>()
    let second = Promise<String>()
    let zipped = first.future.zip(second.future)
    if otherFirst {
      second.succeed("b")
      #expect(!zipped.isCompleted)
      first.succeed(1)
    } else {
      first.succeed(1)
      #expect(!zipped.isCompleted)
      second.succeed("b")
    }
    #expect(zipped.result?.value?.0 == 1)
    #expect(zipped.result?.value?.1 == "b")
  }

  @Test("zip of completed futures completes at once")
  func zipCompleted() {
    let zipped = Future(1).zip(Future("a"))
    #expect(zipped.result?.value?.0 == 1)
    #expect(zipped.result?.value?.1 == "a")
  }

  @Test("zip fails as soon as either future fails", arguments: [false, true])
  func zipFailsFast(otherFails: Bool) {
    let first = Promise<Int>()
    let second = Promise<Int>()
    let zipped = first.future.zip(second.future)
    if otherFails { second.fail(TestError(2)) } else { first.fail(TestError(1)) }
    #expect(zipped.result?.testError == TestError(otherFails ? 2 : 1))
  }

  @Test("zip ends cancelled as soon as either future is cancelled", arguments: [false, true])
  func zipCancelledSource(otherCancelled: Bool) {
    let first = Promise<Int>()
    let second = Promise<Int>()
    let zipped = first.future.zip(second.future)
    if otherCancelled { second.cancel() } else { first.cancel() }
    #expect(zipped.result?.isCancelled == true)
  }

  // MARK: Cancellation reaches the source

  @Test("Cancelling a derived future cancels its pending source", arguments: 0..<9)
  func cancellingDerivedCancelsSource(kind: Int) {
    let source = Promise<Int>()
    let stopped = Counter()
    source.onCancel { stopped.increment() }
    let future = source.future
    let derived: Future<Int> =
      switch kind {
      case 0: future.map { $0 + 1 }
      case 1: future.flatMap { (value: Int) -> Future<Int> in Future(value) }
      case 2: future.flatMap { (value: Int) -> FutureResult<Int> in .success(value) }
      case 3: future.flatMap { (value: Int) -> Int? in value }
      case 4: future.filter { _ in true }
      case 5: future.filter { (_: Int) -> Future<Bool> in Future(true) }
      case 6: future.recover(0)
      case 7: future.recover { (_: any Error) -> Int in 0 }
      default: future.recover { (_: any Error) -> Future<Int> in Future(0) }
      }
    derived.cancel()
    #expect(derived.result?.isCancelled == true)
    #expect(future.result?.isCancelled == true)
    #expect(stopped.value == 1)
  }

  @Test("Cancelling a flatMap after the source succeeded cancels the inner future")
  func cancellingFlatMapCancelsInner() {
    let source = Promise<Int>()
    let inner = Promise<Int>()
    let derived = source.future.flatMap { (_: Int) -> Future<Int> in inner.future }
    source.succeed(1)
    derived.cancel()
    #expect(inner.future.result?.isCancelled == true)
    #expect(source.future.result?.value == 1)
  }

  @Test("Cancelling a filter after the source succeeded cancels the predicate future")
  func cancellingFilterCancelsPredicate() {
    let source = Promise<Int>()
    let decision = Promise<Bool>()
    let derived = source.future.filter { (_: Int) -> Future<Bool> in decision.future }
    source.succeed(1)
    derived.cancel()
    #expect(decision.future.result?.isCancelled == true)
  }

  @Test("Cancelling a recover after the source failed cancels the recovery future")
  func cancellingRecoverCancelsInner() {
    let source = Promise<Int>()
    let inner = Promise<Int>()
    let derived = source.future.recover { (_: any Error) -> Future<Int> in inner.future }
    source.fail(TestError())
    derived.cancel()
    #expect(inner.future.result?.isCancelled == true)
  }

  @Test("Cancelling a zip cancels both futures", arguments: [0, 1, 2])
  func cancellingZipCancelsBoth(completedBefore: Int) {
    let first = Promise<Int>()
    let second = Promise<Int>()
    let zipped = first.future.zip(second.future)
    if completedBefore == 1 { first.succeed(1) }
    if completedBefore == 2 { second.succeed(2) }
    zipped.cancel()
    #expect(zipped.result?.isCancelled == true)
    #expect(first.future.result?.isCancelled == (completedBefore != 1))
    #expect(second.future.result?.isCancelled == (completedBefore != 2))
  }

  @Test("Cancelling the end of a chain cancels its head")
  func cancellingChain() {
    let source = Promise<Int>()
    let end = source.future
      .map { $0 + 1 }
      .flatMap { (value: Int) -> Future<Int> in Future(value) }
      .filter { _ in true }
      .recover(0)
      .zip(Promise<Int>().future)
      .map { $0.0 + $0.1 }
    end.cancel()
    #expect(source.future.result?.isCancelled == true)
  }

  @Test("Derived futures of a cancelled source end cancelled", arguments: 0..<10)
  func derivedOfCancelledSource(kind: Int) {
    let source = Promise<Int>()
    let future = source.future
    let derived: Future<Int> =
      switch kind {
      case 0: future.map { $0 + 1 }
      case 1: future.flatMap { (value: Int) -> Future<Int> in Future(value) }
      case 2: future.flatMap { (value: Int) -> FutureResult<Int> in .success(value) }
      case 3: future.flatMap { (value: Int) -> Int? in value }
      case 4: future.filter { _ in true }
      case 5: future.filter { (_: Int) -> Future<Bool> in Future(true) }
      case 6: future.recover(0)
      case 7: future.recover { (_: any Error) -> Int in 0 }
      case 8: future.recover { (_: any Error) -> Future<Int> in Future(0) }
      default: future.zip(Future(1)).map { $0.0 }
      }
    source.cancel()
    #expect(derived.result?.isCancelled == true)
  }
}
