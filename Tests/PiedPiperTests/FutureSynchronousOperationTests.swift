import PiedPiper
import Testing

@Suite("Future(operation:) with a synchronous closure")
struct FutureSynchronousOperationTests {
  @Test("A trailing closure without await is an operation: nil is a value, not a failure")
  func trailingClosureIsAnOperation() async throws {
    let future = Future<Int?> { nil }
    let value = try await future.value
    #expect(value == nil)
  }

  @Test("The operation's value and thrown error complete the future")
  func valueAndError() async {
    let succeeded = await outcome(of: Future<Int> { 5 })
    let failed = await outcome(of: Future<Int> { throw TestError(6) })
    #expect(succeeded?.value == 5)
    #expect(failed?.testError == TestError(6))
  }

  @Test("Throwing CancellationError ends the future cancelled")
  func cancellation() async {
    let cancelled = await outcome(of: Future<Int> { throw CancellationError() })
    #expect(cancelled?.isCancelled == true)
  }
}
