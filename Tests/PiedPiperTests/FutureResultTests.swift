import PiedPiper
import Testing

@Suite("FutureResult")
struct FutureResultTests {
  let success = FutureResult<Int>.success(2)
  let failure = FutureResult<Int>.error(TestError(1))
  let cancelled = FutureResult<Int>.cancelled

  @Test("Accessors")
  func accessors() {
    #expect(success.value == 2)
    #expect(success.error == nil)
    #expect(!success.isCancelled)

    #expect(failure.value == nil)
    #expect(failure.testError == TestError(1))
    #expect(!failure.isCancelled)

    #expect(cancelled.value == nil)
    #expect(cancelled.error == nil)
    #expect(cancelled.isCancelled)
  }

  @Test("get() returns the value or throws")
  func get() throws {
    #expect(try success.get() == 2)
    #expect(throws: TestError(1)) { try failure.get() }
    #expect(throws: CancellationError.self) { try cancelled.get() }
  }

  @Test("map transforms a success; a thrown error becomes a failure")
  func map() {
    #expect(success.map { $0 * 10 }.value == 20)
    #expect(success.map { _ -> Int in throw TestError(4) }.testError == TestError(4))
    #expect(failure.map { $0 * 10 }.testError == TestError(1))
    #expect(cancelled.map { $0 * 10 }.isCancelled)
  }

  @Test("map does not call the transform for failures and cancellation")
  func mapSkipsTransform() {
    var calls = 0
    _ = failure.map { value -> Int in
      calls += 1
      return value
    }
    _ = cancelled.map { value -> Int in
      calls += 1
      return value
    }
    #expect(calls == 0)
  }

  @Test("flatMap chains results")
  func flatMap() {
    #expect(success.flatMap { FutureResult<String>.success("\($0)") }.value == "2")
    #expect(
      success.flatMap { _ in FutureResult<String>.error(TestError(5)) }.testError == TestError(5))
    #expect(success.flatMap { _ in FutureResult<String>.cancelled }.isCancelled)
    #expect(failure.flatMap { FutureResult<String>.success("\($0)") }.testError == TestError(1))
    #expect(cancelled.flatMap { FutureResult<String>.success("\($0)") }.isCancelled)
  }

  @Test("filter keeps or rejects a success")
  func filter() {
    #expect(success.filter { $0 == 2 }.value == 2)
    #expect(success.filter { $0 != 2 }.futureError == .filterNotSatisfied)
    #expect(failure.filter { _ in true }.testError == TestError(1))
    #expect(cancelled.filter { _ in true }.isCancelled)
  }

  @Test("description names the case")
  func description() {
    #expect(success.description == "success(2)")
    #expect(failure.description == "error(TestError(code: 1))")
    #expect(cancelled.description == "cancelled")
  }
}
