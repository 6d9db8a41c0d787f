import PiedPiper
import Testing

@Suite("Future: async/await bridge")
struct FutureConcurrencyTests {
  // MARK: value

  @Test("value returns the value of a completed future")
  func valueOfCompleted() async throws {
    #expect(try await Future(3).value == 3)
  }

  @Test("value waits for a pending future")
  func valueOfPending() async throws {
    let promise = Promise<String>()
    let waiter = Task { try await promise.future.value }
    await pause(0.005)
    promise.succeed("later")
    #expect(try await waiter.value == "later")
  }

  @Test("value throws the failure's error")
  func valueThrowsError() async {
    await #expect(throws: TestError(2)) { try await Future<Int>(TestError(2)).value }
    let promise = Promise<Int>()
    let waiter = Task { try await promise.future.value }
    promise.fail(TestError(3))
    await #expect(throws: TestError(3)) { try await waiter.value }
  }

  @Test("value throws CancellationError when the future is cancelled")
  func valueThrowsOnCancelledFuture() async {
    await #expect(throws: CancellationError.self) {
      try await Future<Int>(result: .cancelled).value
    }
    let promise = Promise<Int>()
    let waiter = Task { try await promise.future.value }
    await pause(0.005)
    promise.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
  }

  @Test("Cancelling the awaiting task cancels the future", arguments: [false, true])
  func taskCancellationCancelsFuture(waitFirst: Bool) async {
    let promise = Promise<Int>()
    let stopped = Counter()
    promise.onCancel { stopped.increment() }
    let waiter = Task { try await promise.future.value }
    if waitFirst { await pause(0.01) }
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
    #expect(promise.future.result?.isCancelled == true)
    #expect(stopped.value == 1)
  }

  @Test("An already-cancelled task cancels the pending future it awaits")
  func alreadyCancelledTask() async {
    let promise = Promise<Int>()
    let waiter = Task {
      while !Task.isCancelled { await Task.yield() }
      return try await promise.future.value
    }
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
    #expect(promise.future.result?.isCancelled == true)
  }

  @Test("A cancelled task still gets the value of a completed future")
  func cancelledTaskCompletedFuture() async throws {
    let future = Future(5)
    let waiter = Task {
      while !Task.isCancelled { await Task.yield() }
      return try await future.value
    }
    waiter.cancel()
    #expect(try await waiter.value == 5)
    #expect(future.result?.value == 5)
  }

  @Test("Many tasks can await the same future")
  func manyAwaiters() async throws {
    let promise = Promise<Int>()
    let total = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<100 {
        group.addTask { (try? await promise.future.value) ?? 0 }
      }
      group.addTask {
        await pause(0.005)
        promise.succeed(1)
        return 0
      }
      return await group.reduce(0, +)
    }
    #expect(total == 100)
  }

  // MARK: shared futures

  @Test("value: cancelling one awaiting task cancels the future for every waiter")
  func valueCancelsSharedFuture() async {
    let promise = Promise<Int>()
    let cancelled = Task { try await promise.future.value }
    let other = Task { try await promise.future.value }
    cancelled.cancel()
    await #expect(throws: CancellationError.self) { try await cancelled.value }
    promise.succeed(7)
    #expect(promise.future.result?.isCancelled == true)
    await #expect(throws: CancellationError.self) { try await other.value }
  }

  @Test("sharedValue: a cancelled waiter stops waiting, the others get the value")
  func sharedValueLeavesFutureRunning() async throws {
    let promise = Promise<Int>()
    let stopped = Counter()
    promise.onCancel { stopped.increment() }
    let cancelled = Task { try await promise.future.sharedValue }
    let other = Task { try await promise.future.sharedValue }
    cancelled.cancel()
    await #expect(throws: CancellationError.self) { try await cancelled.value }
    #expect(!promise.future.isCompleted)
    promise.succeed(7)
    #expect(try await other.value == 7)
    #expect(stopped.value == 0)
  }

  @Test("sharedValue: an already-cancelled task throws at once and leaves the future pending")
  func sharedValueAlreadyCancelled() async {
    let promise = Promise<Int>()
    let waiter = Task {
      while !Task.isCancelled { await Task.yield() }
      return try await promise.future.sharedValue
    }
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
    #expect(!promise.future.isCompleted)
  }

  @Test("sharedValue returns the value, throws the error, or throws on cancellation")
  func sharedValueOutcomes() async throws {
    #expect(try await Future(3).sharedValue == 3)
    let succeeding = Promise<Int>()
    let failing = Promise<Int>()
    let cancelled = Promise<Int>()
    let waiters = [succeeding, failing, cancelled].map { promise in
      Task { try await promise.future.sharedValue }
    }
    succeeding.succeed(4)
    failing.fail(TestError(5))
    cancelled.cancel()
    #expect(try await waiters[0].value == 4)
    await #expect(throws: TestError(5)) { try await waiters[1].value }
    await #expect(throws: CancellationError.self) { try await waiters[2].value }
  }

  // MARK: Future(operation:)

  @Test("Future(operation:) succeeds with the operation's value")
  func operationValue() async {
    let future = Future { () async throws -> Int in
      await Task.yield()
      return 12
    }
    #expect(await outcome(of: future)?.value == 12)
  }

  @Test("Future(operation:) fails with the error the operation throws")
  func operationError() async {
    let future = Future { () async throws -> Int in
      await Task.yield()
      throw TestError(13)
    }
    #expect(await outcome(of: future)?.testError == TestError(13))
  }

  @Test("Future(operation:) ends cancelled when the operation throws CancellationError")
  func operationCancellationError() async {
    let future = Future { () async throws -> Int in throw CancellationError() }
    #expect(await outcome(of: future)?.isCancelled == true)
  }

  @Test("Cancelling the future cancels the operation's task")
  func cancellingFutureCancelsTask() async {
    let started = Promise<Void>()
    let observed = Promise<Bool>()
    let future = Future { () async throws -> Int in
      started.succeed(())
      do {
        try await Task.sleep(for: .seconds(longerThanAnyTest))
      } catch {
        observed.succeed(Task.isCancelled && error is CancellationError)
        throw error
      }
      observed.succeed(false)
      return 1
    }
    #expect(await outcome(of: started.future)?.value != nil)
    future.cancel()
    #expect(future.result?.isCancelled == true)
    #expect(await outcome(of: observed.future)?.value == true)
    #expect(future.result?.isCancelled == true)
  }

  @Test("Cancelling a derived future cancels the operation's task")
  func cancellingDerivedCancelsTask() async {
    let observed = Promise<Bool>()
    let source = Future { () async throws -> Int in
      do {
        try await Task.sleep(for: .seconds(longerThanAnyTest))
      } catch {
        observed.succeed(Task.isCancelled)
        throw error
      }
      return 1
    }
    let derived = source.map { $0 + 1 }.flatMap { Future($0) }
    derived.cancel()
    #expect(await outcome(of: observed.future)?.value == true)
    #expect(source.result?.isCancelled == true)
  }

  @Test("Future(operation:) works with a Void operation")
  func operationVoid() async throws {
    let ran = Counter()
    let future = Future { () async throws -> Void in ran.increment() }
    try await future.value
    #expect(ran.value == 1)
  }
}
