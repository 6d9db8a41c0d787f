import PiedPiper
import Testing

@Suite("FutureResult.flatMap to a Future and to an Optional")
struct FutureResultFlatMapTests {
  let success = FutureResult<Int>.success(2)
  let failure = FutureResult<Int>.error(TestError(1))
  let cancelled = FutureResult<Int>.cancelled

  @Test("flatMap to a Future continues a success with the future the closure returns")
  func toFutureSuccess() {
    let next = Promise<String>()
    let calls = Counter()
    let future = success.flatMap { (value: Int) -> Future<String> in
      calls.increment()
      #expect(value == 2)
      return next.future
    }
    #expect(calls.value == 1)
    #expect(!future.isCompleted)
    next.succeed("two")
    #expect(future.result?.value == "two")
  }

  @Test("flatMap to a Future passes a failure or a cancellation through without calling")
  func toFuturePassThrough() {
    let calls = Counter()
    let transform = { (value: Int) -> Future<String> in
      calls.increment()
      return Future("\(value)")
    }
    #expect(failure.flatMap(transform).result?.testError == TestError(1))
    #expect(cancelled.flatMap(transform).result?.isCancelled == true)
    #expect(calls.value == 0)
  }

  @Test("flatMap to a Future fails when the returned future fails")
  func toFutureFailing() {
    let future = success.flatMap { _ -> Future<String> in Future(TestError(9)) }
    #expect(future.result?.testError == TestError(9))
  }

  @Test("flatMap to an Optional unwraps a value, and fails with valueMissing on nil")
  func toOptional() {
    #expect(success.flatMap { (value: Int) -> String? in "\(value)" }.value == "2")
    let missing = success.flatMap { (_: Int) -> String? in nil }
    #expect(missing.futureError == .valueMissing)
  }

  @Test("flatMap to an Optional passes a failure or a cancellation through without calling")
  func toOptionalPassThrough() {
    let calls = Counter()
    let transform = { (value: Int) -> String? in
      calls.increment()
      return "\(value)"
    }
    #expect(failure.flatMap(transform).testError == TestError(1))
    #expect(cancelled.flatMap(transform).isCancelled)
    #expect(calls.value == 0)
  }
}
