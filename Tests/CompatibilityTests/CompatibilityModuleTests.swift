import CarlosCompatibility
import Foundation
import PiedPiper
import Testing

@Suite("CarlosCompatibility: the 0.x and PiedPiper spellings, opt-in")
struct CompatibilityModuleTests {
  @Test("Result<T> is PiedPiper's: a future's outcome with success, error and cancelled")
  func result() {
    let succeeded: Result<Int> = .success(1)
    let cancelled: Result<Int> = .cancelled
    #expect(succeeded.value == 1 && cancelled.isCancelled)
    let promise = Promise<Int>()
    let seen = Lock<Result<Int>?>(nil)
    promise.future.onCompletion { (result: Result<Int>) in seen.withLock { $0 = result } }
    promise.fail(FetchError.invalidKey)
    #expect(seen.withLock { $0?.error as? FetchError } == .invalidKey)
    let swiftResult: Swift.Result<Int, FetchError> = .success(2)
    #expect((try? swiftResult.get()) == 2)
  }

  @Test("Logger is Carlos 0.x's name for CarlosLogger")
  func logger() {
    #expect(Logger.self == CarlosLogger.self)
    #expect(Logger.Level.warning > .info)
  }

  @Test(">>> composes plain closures kept in let constants, as PiedPiper's specs do")
  func plainClosures() async throws {
    let increment = { (x: Int) in x + 1 }
    let double = { (x: Int) in x * 2 }
    #expect((increment >>> double)(1) == 4)

    let parse = { (text: String) -> Int? in Int(text) }
    let half = { (x: Int) -> Int? in x % 2 == 0 ? x / 2 : nil }
    #expect((parse >>> half)("42") == 21)
    #expect((parse >>> half)("x") == nil)

    let fetch = { (x: Int) in Future(x + 1) }
    let describe = { (x: Int) in Future("value \(x)") }
    #expect(try await (fetch >>> describe)(1).value == "value 2")
  }
}

@Suite("DeferredResultOperation: Carlos 0.x's deferred request")
struct DeferredResultOperationTests {
  @Test("run on an OperationQueue, it completes the decoy like the get")
  func completesTheDecoy() async throws {
    let memory = MemoryCacheLevel<String, String>()
    try await memory.set("v", forKey: "k")
    let found = Promise<String>()
    let missing = Promise<String>()
    let queue = OperationQueue()
    queue.addOperation(DeferredResultOperation(decoyRequest: found, key: "k", cache: memory))
    queue.addOperation(DeferredResultOperation(decoyRequest: missing, key: "x", cache: memory))
    #expect(try await found.future.value == "v")
    await #expect(throws: FetchError.valueNotInCache) { try await missing.future.value }
  }

  @Test("a cancelled operation cancels the decoy without asking the level")
  func cancelled() async {
    let decoy = Promise<String>()
    let operation = DeferredResultOperation(
      decoyRequest: decoy, key: "k", cache: MemoryCacheLevel<String, String>())
    operation.cancel()
    operation.start()
    #expect(decoy.future.result.map { if case .cancelled = $0 { true } else { false } } == true)
  }
}
