import PiedPiper
import Testing

@Suite("Future.zip with a FutureResult")
struct FutureZipResultTests {
  @Test("Zipping with a success pairs the values once the future succeeds")
  func success() {
    let source = Promise<Int>()
    let zipped = source.future.zip(FutureResult<String>.success("a"))
    #expect(!zipped.isCompleted)
    source.succeed(1)
    #expect(zipped.result?.value?.0 == 1)
    #expect(zipped.result?.value?.1 == "a")
  }

  @Test("Zipping with a success fails or ends cancelled like the future", arguments: [true, false])
  func futureFails(fail: Bool) {
    let source = Promise<Int>()
    let zipped = source.future.zip(FutureResult<String>.success("a"))
    if fail { source.fail(TestError(2)) } else { source.cancel() }
    #expect(zipped.result?.testError == (fail ? TestError(2) : nil))
    #expect(zipped.result?.isCancelled == !fail)
  }

  @Test("Zipping with a failure or a cancellation completes at once like it, leaving the future")
  func resultFails() {
    let source = Promise<Int>()
    let failed = source.future.zip(FutureResult<String>.error(TestError(3)))
    let cancelled = source.future.zip(FutureResult<String>.cancelled)
    #expect(failed.result?.testError == TestError(3))
    #expect(cancelled.result?.isCancelled == true)
    #expect(!source.future.isCompleted)
  }

  @Test("Cancelling the zipped future cancels the source")
  func cancellation() {
    let source = Promise<Int>()
    let zipped = source.future.zip(FutureResult<String>.success("a"))
    zipped.cancel()
    #expect(source.future.result?.isCancelled == true)
  }
}
