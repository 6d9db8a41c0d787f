import PiedPiper
import Testing

@Suite("Future.recover with closures that ignore the error")
struct FutureRecoverIgnoringErrorTests {
  @Test("recover { value } replaces a failure with the value")
  func value() {
    let source = Promise<Int>()
    let recovered = source.future.recover { 7 }
    source.fail(TestError(1))
    #expect(recovered.result?.value == 7)
  }

  @Test("recover { future } continues a failure with the future")
  func future() {
    let source = Promise<Int>()
    let rescue = Promise<Int>()
    let recovered = source.future.recover { rescue.future }
    source.fail(TestError(1))
    #expect(!recovered.isCompleted)
    rescue.succeed(8)
    #expect(recovered.result?.value == 8)
  }

  @Test("recover { result } completes a failure like the result", arguments: 0..<3)
  func result(kind: Int) {
    let rescue: FutureResult<Int> = [.success(9), .error(TestError(9)), .cancelled][kind]
    let recovered = Future<Int>(TestError(1)).recover { rescue }
    #expect(recovered.result?.description == rescue.description)
  }

  @Test("recover { error in result } sees the error and completes like the result")
  func resultFromError() {
    let recovered = Future<Int>(TestError(4)).recover { (error: any Error) -> FutureResult<Int> in
      .success((error as? TestError)?.code ?? -1)
    }
    #expect(recovered.result?.value == 4)
  }

  @Test("No form calls its closure for a success or a cancellation", arguments: [true, false])
  func notCalled(succeed: Bool) {
    let calls = Counter()
    let source = Promise<Int>()
    let recovered = [
      source.future.recover { () -> Int in
        calls.increment()
        return 0
      },
      source.future.recover { () -> Future<Int> in
        calls.increment()
        return Future(0)
      },
      source.future.recover { () -> FutureResult<Int> in
        calls.increment()
        return .success(0)
      },
    ]
    if succeed { source.succeed(1) } else { source.cancel() }
    #expect(calls.value == 0)
    for future in recovered {
      #expect(future.result?.value == (succeed ? 1 : nil))
      #expect(future.result?.isCancelled == !succeed)
    }
  }

  @Test("Cancelling a recovered future cancels the rescue future that is running")
  func cancellationReachesRescue() {
    let rescue = Promise<Int>()
    let recovered = Future<Int>(TestError(1)).recover { rescue.future }
    recovered.cancel()
    #expect(rescue.future.result?.isCancelled == true)
  }
}
