import PiedPiper
import Testing

@Suite("Promise callbacks and chaining, as in the original PiedPiper")
struct PromiseCallbacksTests {
  @Test("onSuccess, onFailure and onCompletion return the promise itself")
  func callbacksReturnThePromise() {
    let promise = Promise<Int>()
    #expect(promise.onSuccess { _ in } === promise)
    #expect(promise.onFailure { _ in } === promise)
    #expect(promise.onCompletion { _ in } === promise)
  }

  @Test("mimic returns the promise itself, for a future and for a result")
  func mimicReturnsThePromise() {
    let promise = Promise<Int>()
    #expect(promise.mimic(Promise<Int>().future) === promise)
    #expect(promise.mimic(.success(1)) === promise)
  }

  @Test("onSuccess runs with the value, once, and not on failure or cancellation", arguments: 0..<3)
  func onSuccess(kind: Int) {
    let promise = Promise<Int>()
    let values = Recorder<Int>()
    promise.onSuccess { values.record($0) }
    switch kind {
    case 0: promise.succeed(5)
    case 1: promise.fail(TestError(5))
    default: promise.cancel()
    }
    promise.succeed(6)
    #expect(values.events == (kind == 0 ? [5] : []))
  }

  @Test("onFailure runs with the error, once, and not on success or cancellation", arguments: 0..<3)
  func onFailure(kind: Int) {
    let promise = Promise<Int>()
    let errors = Recorder<TestError?>()
    promise.onFailure { errors.record($0 as? TestError) }
    switch kind {
    case 0: promise.succeed(5)
    case 1: promise.fail(TestError(5))
    default: promise.cancel()
    }
    promise.fail(TestError(6))
    #expect(errors.events == (kind == 1 ? [TestError(5)] : []))
  }

  @Test("onCompletion runs once with whatever the outcome is", arguments: 0..<3)
  func onCompletion(kind: Int) {
    let promise = Promise<Int>()
    let outcomes = Recorder<String>()
    promise.onCompletion { outcomes.record($0.description) }
    let expected: FutureResult<Int> = [.success(1), .error(TestError(1)), .cancelled][kind]
    promise.complete(expected)
    promise.cancel()
    #expect(outcomes.events == [expected.description])
  }

  @Test("Callbacks added after completion run at once")
  func callbacksAfterCompletion() {
    let promise = Promise<Int>()
    promise.succeed(3)
    let events = Recorder<String>()
    promise
      .onSuccess { events.record("success \($0)") }
      .onFailure { _ in events.record("failure") }
      .onCompletion { events.record("completion \($0)") }
    #expect(events.events == ["success 3", "completion success(3)"])
  }

  @Test("The original chain Promise().onSuccess{}.onFailure{}.mimic(future) works")
  func originalChain() {
    let source = Promise<String>()
    let events = Recorder<String>()
    let promise = Promise<String>()
      .onSuccess { events.record("success \($0)") }
      .onFailure { _ in events.record("failure") }
      .mimic(source.future)
    #expect(events.events.isEmpty)
    source.succeed("ok")
    #expect(events.events == ["success ok"])
    #expect(promise.future.result?.value == "ok")
  }

  @Test("A promise's callbacks are the future's callbacks: both see one outcome")
  func sharedWithFuture() {
    let promise = Promise<Int>()
    let events = Recorder<String>()
    promise.onSuccess { events.record("promise \($0)") }
    promise.future.onSuccess { events.record("future \($0)") }
    promise.succeed(8)
    #expect(events.events == ["promise 8", "future 8"])
  }
}
