import PiedPiper
import Testing

@Suite("Future(unwrapping:): a future from a synchronous closure returning an optional")
struct FutureUnwrappingTests {
  @Test("A value makes a future that has succeeded with it")
  func value() {
    let future = Future(unwrapping: { Int("42") })
    #expect(future.result?.value == 42)
  }

  @Test("nil makes a future that has failed with valueMissing")
  func nilFails() {
    let future = Future(unwrapping: { Int("forty-two") })
    #expect(future.result?.futureError == .valueMissing)
  }

  @Test("An error thrown by the closure fails the future with it")
  func thrownError() {
    let future = Future<Int>(unwrapping: { throw TestError(5) })
    #expect(future.result?.testError == TestError(5))
  }

  @Test("The closure runs once, at once")
  func runsOnce() {
    let calls = Counter()
    _ = Future<Int>(unwrapping: {
      calls.increment()
      return 1
    })
    #expect(calls.value == 1)
  }

  @Test("A trailing closure still means Future(operation:), never the synchronous form")
  func trailingClosureIsAsync() async throws {
    // With `operation:` the value type is the optional itself and `nil` is a
    // success; with `unwrapping:` it would be `Int` and `nil` a failure.
    let future = Future { Int("not a number") }
    #expect(type(of: future) == Future<Int?>.self)
    let value = try await future.value
    #expect(value == nil)
  }

  @Test("Future(closure:), the original spelling, behaves the same")
  @available(*, deprecated)
  func originalSpelling() {
    #expect(Future(closure: { Int("7") }).result?.value == 7)
    #expect(Future(closure: { Int("x") }).result?.futureError == .valueMissing)
  }

  @Test("An original trailing closure that cannot be an operation still compiles, synchronously")
  @available(*, deprecated)
  func originalTrailingClosure() {
    // `nil` cannot be a String, so this is not `Future(operation:)`: it is the
    // original `Future(closure:)`, evaluated at once.
    let future: Future<String> = Future { nil }
    #expect(future.result?.futureError == .valueMissing)
  }
}
