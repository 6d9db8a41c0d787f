import PiedPiper
import Testing

@Suite("Promise: the write side")
struct PromiseTests {
  @Test("succeed completes the future with the value")
  func succeed() {
    let promise = Promise<String>()
    promise.succeed("done")
    #expect(promise.future.result?.value == "done")
  }

  @Test("fail completes the future with the error")
  func fail() {
    let promise = Promise<String>()
    promise.fail(TestError(3))
    #expect(promise.future.result?.testError == TestError(3))
  }

  @Test("cancel completes the future as cancelled")
  func cancel() {
    let promise = Promise<String>()
    promise.cancel()
    #expect(promise.future.result?.isCancelled == true)
  }

  @Test("complete(_:) and mimic(_ result:) complete with the result", arguments: 0..<3)
  func completeAndMimicResult(kind: Int) {
    let result: FutureResult<Int> = [.success(1), .error(TestError(1)), .cancelled][kind]
    let completed = Promise<Int>()
    completed.complete(result)
    let mimicking = Promise<Int>()
    mimicking.mimic(result)
    for promise in [completed, mimicking] {
      #expect(promise.future.result?.description == result.description)
    }
  }

  @Test("The first of succeed/fail/cancel wins")
  func firstWins() {
    let promise = Promise<Int>()
    promise.fail(TestError(1))
    promise.succeed(2)
    promise.cancel()
    promise.complete(.success(3))
    promise.mimic(.success(4))
    promise.mimic(Future(5))
    #expect(promise.future.result?.testError == TestError(1))
  }

  @Test("The future is the same object every time")
  func futureIdentity() {
    let promise = Promise<Int>()
    #expect(promise.future === promise.future)
  }

  @Test("mimic(_ future:) completes like the other future", arguments: 0..<3)
  func mimicFuture(kind: Int) {
    let other = Promise<Int>()
    let promise = Promise<Int>()
    promise.mimic(other.future)
    #expect(!promise.future.isCompleted)
    switch kind {
    case 0: other.succeed(7)
    case 1: other.fail(TestError(7))
    default: other.cancel()
    }
    #expect(promise.future.result?.description == other.future.result?.description)
  }

  @Test("mimic(_ future:) of a completed future completes at once")
  func mimicCompletedFuture() {
    let promise = Promise<Int>()
    promise.mimic(Future(9))
    #expect(promise.future.result?.value == 9)
  }

  @Test("Cancelling a mimicking promise's future cancels the mimicked future")
  func mimicPropagatesCancellation() {
    let other = Promise<Int>()
    let promise = Promise<Int>()
    promise.mimic(other.future)
    promise.future.cancel()
    #expect(other.future.result?.isCancelled == true)
  }

  @Test("onCancel runs when the consumer cancels the future, and returns the promise")
  func onCancel() {
    let promise = Promise<Int>()
    let stopped = Counter()
    let returned = promise.onCancel { stopped.increment() }
    #expect(returned === promise)
    #expect(stopped.value == 0)
    promise.future.cancel()
    #expect(stopped.value == 1)
    promise.future.cancel()
    promise.cancel()
    #expect(stopped.value == 1)
  }

  @Test("onCancel does not run when the promise succeeds or fails", arguments: [true, false])
  func onCancelNotOnCompletion(succeed: Bool) {
    let promise = Promise<Int>()
    let stopped = Counter()
    promise.onCancel { stopped.increment() }
    if succeed { promise.succeed(1) } else { promise.fail(TestError()) }
    promise.future.cancel()
    #expect(stopped.value == 0)
  }

  @Test("onCancel registered after cancellation runs at once")
  func onCancelAfterCancellation() {
    let promise = Promise<Int>()
    promise.cancel()
    let stopped = Counter()
    promise.onCancel { stopped.increment() }
    #expect(stopped.value == 1)
  }

  @Test("Cancelling a future derived from the promise's future reaches onCancel")
  func derivedCancellationReachesPromise() {
    let promise = Promise<Int>()
    let stopped = Counter()
    promise.onCancel { stopped.increment() }
    let derived = promise.future.map { $0 * 2 }.filter { $0 > 0 }.recover(0)
    derived.cancel()
    #expect(stopped.value == 1)
    #expect(promise.future.result?.isCancelled == true)
  }

  @Test("A promise can be completed from another thread")
  func completeFromOtherThread() async {
    let promise = Promise<Int>()
    await onThreads(1) { _ in promise.succeed(11) }
    #expect(promise.future.result?.value == 11)
  }
}
