import Foundation
import PiedPiper
import Testing

@Suite("Future: snooze, timeout and retry")
struct FutureTimingTests {
  // MARK: snooze

  @Test("snooze completes like the source, after the delay")
  func snoozeDelays() async {
    let clock = ContinuousClock()
    let source = Promise<Int>()
    let snoozed = source.future.snooze(0.05)
    let arrival = Promise<ContinuousClock.Instant>()
    snoozed.onCompletion { _ in arrival.succeed(clock.now) }
    let start = clock.now
    source.succeed(3)
    #expect(await outcome(of: snoozed)?.value == 3)
    let arrived = await outcome(of: arrival.future)?.value
    // A lower bound only: the timer never fires early (small allowance for clock granularity).
    #expect(arrived.map { $0 - start >= .milliseconds(45) } == true)
  }

  @Test("snooze completes after the source, not before")
  func snoozeWaitsForSource() async {
    let source = Promise<Int>()
    let snoozed = source.future.snooze(0.001)
    await pause(0.02)
    #expect(!snoozed.isCompleted)
    source.succeed(1)
    #expect(await outcome(of: snoozed)?.value == 1)
  }

  @Test("snooze delays failures and cancellation too", arguments: [false, true])
  func snoozeOtherOutcomes(fail: Bool) async {
    let source = Promise<Int>()
    let snoozed = source.future.snooze(0.005)
    if fail { source.fail(TestError(1)) } else { source.cancel() }
    let result = await outcome(of: snoozed)
    #expect(result?.testError == (fail ? TestError(1) : nil))
    #expect(result?.isCancelled == !fail)
  }

  @Test("Cancelling a snoozed future cancels the source")
  func snoozeCancellation() async {
    let source = Promise<Int>()
    let snoozed = source.future.snooze(0.005)
    snoozed.cancel()
    #expect(source.future.result?.isCancelled == true)
    #expect(snoozed.result?.isCancelled == true)
  }

  @Test("Cancelling during the snooze wins over the later completion")
  func snoozeCancelledWhileWaiting() async {
    let snoozed = Future(1).snooze(0.01)
    snoozed.cancel()
    await pause(0.03)
    #expect(snoozed.result?.isCancelled == true)
  }

  // MARK: timeout

  @Test("timeout fails with FutureError.timeout and cancels the source")
  func timeoutFires() async {
    let source = Promise<Int>()
    let stopped = Counter()
    source.onCancel { stopped.increment() }
    let limited = source.future.timeout(after: 0.01)
    #expect(await outcome(of: limited)?.futureError == .timeout)
    #expect(source.future.result?.isCancelled == true)
    #expect(stopped.value == 1)
  }

  @Test("when the timeout fires, the source is cancelled before the timed-out future completes")
  func timeoutCancelsSourceFirst() async {
    // A clean-clone ThreadSanitizer run saw the source still pending after
    // awaiting the timed-out future: the timer completed it, then cancelled the source.
    let source = Promise<Int>()
    let limited = source.future.timeout(after: 0.01)
    let sourceCancelledFirst = Promise<Bool>()
    limited.onCompletion { _ in
      sourceCancelledFirst.succeed(source.future.result?.isCancelled == true)
    }
    #expect(await outcome(of: sourceCancelledFirst.future)?.value == true)
    #expect(limited.result?.futureError == .timeout)
  }

  @Test("timeout completes like the source when the source is first", arguments: 0..<3)
  func timeoutNotReached(kind: Int) async {
    let source = Promise<Int>()
    let limited = source.future.timeout(after: 0.02)
    switch kind {
    case 0: source.succeed(2)
    case 1: source.fail(TestError(2))
    default: source.cancel()
    }
    #expect(limited.result?.description == source.future.result?.description)
    await pause(0.05)
    #expect(limited.result?.description == source.future.result?.description)
  }

  @Test("timeout of a completed future keeps its result")
  func timeoutOfCompleted() async {
    let limited = Future(5).timeout(after: 0.001)
    await pause(0.02)
    #expect(limited.result?.value == 5)
  }

  @Test("Cancelling a timeout future cancels the source")
  func timeoutCancellation() async {
    let source = Promise<Int>()
    let limited = source.future.timeout(after: 5)
    limited.cancel()
    #expect(source.future.result?.isCancelled == true)
    #expect(limited.result?.isCancelled == true)
  }

  @Test("A pending timeout timer keeps nothing of a completed future alive")
  func timeoutReleasesResult() async {
    weak var released: Tracked?
    do {
      let source = Promise<Tracked>()
      let limited = source.future.timeout(after: 600)
      let tracked = Tracked()
      released = tracked
      source.succeed(tracked)
      #expect(limited.result?.value === tracked)
    }
    // The timer fires in 600 s; until then it must not hold the value.
    #expect(released == nil)
  }

  @Test("A timeout still fails a future whose source nobody else holds")
  func timeoutOfAbandonedSource() async {
    let limited = Promise<Int>().future.timeout(after: 0.01)
    #expect(await outcome(of: limited)?.futureError == .timeout)
  }

  // MARK: retry

  @Test(
    "retry makes count more attempts after the first, then fails with the last error",
    arguments: [0, 1, 3])
  func retryExhausted(count: Int) async {
    let attempts = Counter()
    let retried = retry(count, every: 0.001) { () -> Future<Int> in
      Future(TestError(attempts.increment()))
    }
    #expect(await outcome(of: retried)?.testError == TestError(count + 1))
    await pause(0.01)
    #expect(attempts.value == count + 1)
  }

  @Test("retry stops at the first success")
  func retryStopsOnSuccess() async {
    let attempts = Counter()
    let retried = retry(5, every: 0.001) { () -> Future<Int> in
      let attempt = attempts.increment()
      return attempt < 3 ? Future(TestError(attempt)) : Future(attempt * 100)
    }
    #expect(await outcome(of: retried)?.value == 300)
    await pause(0.01)
    #expect(attempts.value == 3)
  }

  @Test("retry does not retry after a success on the first attempt")
  func retryFirstSuccess() async {
    let attempts = Counter()
    let retried = retry(3, every: 0.001) {
      attempts.increment()
      return Future(1)
    }
    #expect(retried.result?.value == 1)
    await pause(0.01)
    #expect(attempts.value == 1)
  }

  @Test("retry with a negative count makes a single attempt")
  func retryNegativeCount() async {
    let attempts = Counter()
    let retried = retry(-2, every: 0.001) { () -> Future<Int> in
      Future(TestError(attempts.increment()))
    }
    #expect(await outcome(of: retried)?.testError == TestError(1))
    #expect(attempts.value == 1)
  }

  @Test("retry waits for a pending attempt before starting the next")
  func retryPendingAttempts() async {
    let attempts = Recorder<Promise<Int>>()
    let retried = retry(2, every: 0.001) { () -> Future<Int> in
      let promise = Promise<Int>()
      attempts.record(promise)
      return promise.future
    }
    await pause(0.01)
    #expect(attempts.events.count == 1)
    attempts.events.first?.fail(TestError(1))
    #expect(await eventually { attempts.events.count == 2 })
    #expect(!retried.isCompleted)
    attempts.events.last?.succeed(5)
    #expect(await outcome(of: retried)?.value == 5)
    await pause(0.01)
    #expect(attempts.events.count == 2)
  }

  @Test("Cancelling retry stops retrying")
  func retryCancelledBetweenAttempts() async {
    let attempts = Counter()
    let retried = retry(100, every: 0.01) { () -> Future<Int> in
      Future(TestError(attempts.increment()))
    }
    retried.cancel()
    await pause(0.05)
    #expect(retried.result?.isCancelled == true)
    #expect(attempts.value == 1)
  }

  @Test("Cancelling retry cancels the running attempt")
  func retryCancelsRunningAttempt() async {
    let current = Recorder<Promise<Int>>()
    let retried = retry(3, every: 0.001) { () -> Future<Int> in
      let promise = Promise<Int>()
      current.record(promise)
      return promise.future
    }
    #expect(current.events.count == 1)
    retried.cancel()
    #expect(current.events.first?.future.result?.isCancelled == true)
    await pause(0.02)
    #expect(current.events.count == 1)
    #expect(retried.result?.isCancelled == true)
  }

  @Test("A cancelled attempt ends retry as cancelled, without more attempts")
  func retryAttemptCancelled() async {
    let attempts = Counter()
    let retried = retry(3, every: 0.001) { () -> Future<Int> in
      attempts.increment()
      return Future(result: .cancelled)
    }
    #expect(await outcome(of: retried)?.isCancelled == true)
    await pause(0.01)
    #expect(attempts.value == 1)
  }
}
