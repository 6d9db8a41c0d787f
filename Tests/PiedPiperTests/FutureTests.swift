import Foundation
import PiedPiper
import Testing

@Suite("Future: construction and state machine")
struct FutureTests {
  // MARK: Construction

  @Test("Future(value) has already succeeded")
  func initWithValue() {
    let future = Future(42)
    #expect(future.isCompleted)
    #expect(future.result?.value == 42)
  }

  @Test("Future(error) has already failed with that error")
  func initWithError() {
    let future = Future<Int>(TestError(7))
    #expect(future.isCompleted)
    #expect(future.result?.testError == TestError(7))
    #expect(future.result?.value == nil)
  }

  @Test("Future(result:) completes with the given result", arguments: [0, 1, 2])
  func initWithResult(kind: Int) {
    let result: FutureResult<String> = [.success("a"), .error(TestError(1)), .cancelled][kind]
    let future = Future(result: result)
    #expect(future.result?.value == result.value)
    #expect(future.result?.testError == result.testError)
    #expect(future.result?.isCancelled == result.isCancelled)
  }

  @Test("init(value:error:) succeeds with a value")
  func initValueErrorWithValue() {
    let future = Future<Int>(value: 5, error: TestError(1))
    #expect(future.result?.value == 5)
  }

  @Test("init(value:error:) fails with the error when the value is nil")
  func initValueErrorWithNil() {
    let future = Future<Int>(value: nil, error: TestError(9))
    #expect(future.result?.testError == TestError(9))
  }

  @Test("Future<Void>() has already succeeded")
  func voidFuture() {
    let future = Future<Void>()
    let succeeded = Counter()
    future.onSuccess { succeeded.increment() }
    #expect(future.isCompleted)
    #expect(future.result?.value != nil)
    #expect(succeeded.value == 1)
  }

  @Test("A promise's future is pending until completed")
  func pending() {
    let promise = Promise<Int>()
    #expect(!promise.future.isCompleted)
    #expect(promise.future.result == nil)
    promise.succeed(1)
    #expect(promise.future.isCompleted)
  }

  // MARK: First completion wins

  @Test("The first completion wins; later ones are ignored", arguments: 0..<3, 0..<3)
  func firstCompletionWins(first: Int, second: Int) {
    let promise = Promise<Int>()
    let seen = Recorder<String>()
    promise.future.onCompletion { seen.record($0.description) }
    let complete: (Int, Promise<Int>) -> Void = { kind, promise in
      switch kind {
      case 0: promise.succeed(1)
      case 1: promise.fail(TestError(2))
      default: promise.cancel()
      }
    }
    complete(first, promise)
    let afterFirst = promise.future.result?.description
    complete(second, promise)
    promise.future.cancel()
    #expect(promise.future.result?.description == afterFirst)
    #expect(seen.events == [afterFirst].compactMap { $0 })
    #expect(seen.events.count == 1)
  }

  @Test("cancel() on a completed future changes nothing")
  func cancelAfterSuccess() {
    let future = Future(3)
    let cancelled = Counter()
    future.onCancel { cancelled.increment() }
    future.cancel()
    #expect(future.result?.value == 3)
    #expect(cancelled.value == 0)
  }

  @Test("cancel() completes a pending future as cancelled")
  func cancelPending() {
    let promise = Promise<Int>()
    let cancelled = Counter()
    promise.future.onCancel { cancelled.increment() }
    promise.future.cancel()
    #expect(promise.future.result?.isCancelled == true)
    #expect(cancelled.value == 1)
    promise.succeed(1)
    #expect(promise.future.result?.isCancelled == true)
  }

  // MARK: Callbacks

  @Test("Only the matching callback runs, exactly once", arguments: 0..<3)
  func matchingCallbacks(kind: Int) {
    let promise = Promise<Int>()
    let events = Recorder<String>()
    promise.future
      .onSuccess { events.record("success \($0)") }
      .onFailure { events.record("failure \(($0 as? TestError)?.code ?? -1)") }
      .onCancel { events.record("cancel") }
      .onCompletion { events.record("completion \($0)") }
    switch kind {
    case 0:
      promise.succeed(4)
      #expect(events.events == ["success 4", "completion success(4)"])
    case 1:
      promise.fail(TestError(5))
      #expect(events.events == ["failure 5", "completion error(TestError(code: 5))"])
    default:
      promise.cancel()
      #expect(events.events == ["cancel", "completion cancelled"])
    }
    promise.succeed(6)
    promise.cancel()
    #expect(events.events.count == 2)
  }

  @Test("onSuccess/onFailure/onCancel/onCompletion return the same future")
  func chainingReturnsSelf() {
    let future = Promise<Int>().future
    #expect(future.onSuccess { _ in } === future)
    #expect(future.onFailure { _ in } === future)
    #expect(future.onCancel {} === future)
    #expect(future.onCompletion { _ in } === future)
  }

  @Test("Callbacks run on completion, before the completing call returns")
  func callbacksRunOnCompletingCall() {
    let promise = Promise<Int>()
    let count = Counter()
    for _ in 0..<5 { promise.future.onSuccess { _ in count.increment() } }
    #expect(count.value == 0)
    promise.succeed(1)
    #expect(count.value == 5)
  }

  @Test("Callbacks run on the thread that completes the future")
  func callbacksRunOnCompletingThread() async {
    let promise = Promise<Int>()
    let callbackThreads = Recorder<ObjectIdentifier>()
    let completingThreads = Recorder<ObjectIdentifier>()
    promise.future.onSuccess { _ in callbackThreads.record(ObjectIdentifier(Thread.current)) }
    await onThreads(1) { _ in
      completingThreads.record(ObjectIdentifier(Thread.current))
      promise.succeed(1)
    }
    #expect(callbackThreads.events.count == 1)
    #expect(callbackThreads.events == completingThreads.events)
  }

  @Test("A callback added to a completed future runs on the registering thread")
  func lateCallbackRunsOnRegisteringThread() async {
    let future = Future(1)
    let callbackThreads = Recorder<ObjectIdentifier>()
    let registeringThreads = Recorder<ObjectIdentifier>()
    await onThreads(1) { _ in
      registeringThreads.record(ObjectIdentifier(Thread.current))
      future.onSuccess { _ in callbackThreads.record(ObjectIdentifier(Thread.current)) }
    }
    #expect(callbackThreads.events.count == 1)
    #expect(callbackThreads.events == registeringThreads.events)
  }

  @Test("A callback added after completion runs at once, exactly once", arguments: 0..<3)
  func callbackAfterCompletion(kind: Int) {
    let future = Future(result: [.success(1), .error(TestError()), .cancelled][kind])
    let count = Counter()
    future.onCompletion { _ in count.increment() }
    #expect(count.value == 1)
    future.onSuccess { _ in count.increment() }.onFailure { _ in count.increment() }.onCancel {
      count.increment()
    }
    #expect(count.value == 2)
  }

  @Test("A callback can register another callback on the same future")
  func reentrantRegistration() {
    let promise = Promise<Int>()
    let events = Recorder<String>()
    promise.future.onSuccess { value in
      events.record("outer \(value)")
      promise.future.onSuccess { events.record("inner \($0)") }
    }
    promise.succeed(8)
    #expect(events.events == ["outer 8", "inner 8"])
  }

  @Test("A callback can complete or cancel the same future again without effect")
  func reentrantCompletion() {
    let promise = Promise<Int>()
    let count = Counter()
    promise.future.onCompletion { _ in
      count.increment()
      promise.cancel()
      promise.fail(TestError())
    }
    promise.succeed(1)
    #expect(count.value == 1)
    #expect(promise.future.result?.value == 1)
  }

  // MARK: Releasing callbacks

  @Test("Callbacks are released once the future completes", arguments: 0..<3)
  func callbacksReleased(kind: Int) {
    let promise = Promise<Int>()
    var tracked: Tracked? = Tracked()
    weak let watcher = tracked
    promise.future
      .onSuccess { [tracked] _ in _ = tracked }
      .onFailure { [tracked] _ in _ = tracked }
      .onCancel { [tracked] in _ = tracked }
      .onCompletion { [tracked] _ in _ = tracked }
    tracked = nil
    #expect(watcher != nil, "a pending future keeps its callbacks")
    switch kind {
    case 0: promise.succeed(1)
    case 1: promise.fail(TestError())
    default: promise.cancel()
    }
    #expect(watcher == nil)
  }

  @Test("A callback added after completion is not retained")
  func lateCallbackReleased() {
    let future = Future(1)
    var tracked: Tracked? = Tracked()
    weak let watcher = tracked
    future.onSuccess { [tracked] _ in _ = tracked }
    tracked = nil
    #expect(watcher == nil)
  }

  @Test("Pending derived futures release their closures and callbacks once completed")
  func derivedCallbacksReleased() {
    let promise = Promise<Int>()
    var tracked: Tracked? = Tracked()
    weak let watcher = tracked
    let derived = promise.future
      .map { [tracked] value -> Int in
        _ = tracked
        return value + 1
      }
      .flatMap { [tracked] (value: Int) -> Future<Int> in
        _ = tracked
        return Future(value * 2)
      }
      .filter { [tracked] _ in tracked != nil }
      .recover { [tracked] (_: any Error) -> Int in
        _ = tracked
        return 0
      }
    derived.onSuccess { [tracked] _ in _ = tracked }
    tracked = nil
    #expect(watcher != nil)
    promise.succeed(1)
    #expect(derived.result?.value == 4)
    #expect(watcher == nil)
  }

  @Test("A cancelled chain releases its closures")
  func cancelledChainReleased() {
    let promise = Promise<Int>()
    var tracked: Tracked? = Tracked()
    weak let watcher = tracked
    let derived = promise.future.map { [tracked] value -> Int in
      _ = tracked
      return value
    }
    derived.onCompletion { [tracked] _ in _ = tracked }
    tracked = nil
    #expect(watcher != nil)
    derived.cancel()
    #expect(promise.future.result?.isCancelled == true)
    #expect(watcher == nil)
  }

  @Test("A completed future is freed when nobody holds it")
  func futureIsFreed() {
    let promise = Promise<Int>()
    weak var weakDerived: Future<Int>?
    do {
      let derived = promise.future.map { $0 + 1 }
      weakDerived = derived
      derived.onSuccess { _ in }
    }
    promise.succeed(1)
    #expect(weakDerived == nil)
  }
}
