import Carlos
import Testing

@Suite("Batching")
struct BatchTests {
  @Test("batchGetSome returns the values found, in key order")
  func someInKeyOrder() {
    let spy = SpyLevel<String, Int>(["a": 1, "c": 3, "d": 4])
    let batch = spy.batchGetSome(["d", "a", "b", "c"])
    #expect(batch.result?.value == [4, 1, 3])
    #expect(spy.gets == ["d", "a", "b", "c"])
  }

  @Test("batchGetSome keeps key order whatever order the gets complete in")
  func someOrderIndependentOfCompletion() {
    let probe = ProbeLevel<String>(.held)
    let batch = probe.batchGetSome(["x", "y", "z"])
    probe.complete(2)
    probe.complete(1, with: .error(TestError()))
    #expect(Outcome(batch) == .pending)
    probe.complete(0)
    #expect(batch.result?.value == ["x#0", "z#2"])
  }

  @Test("batchGetSome leaves a cancelled request out like a failed one (Carlos 0.10's contract)")
  func someLeavesCancelledOut() {
    let probe = ProbeLevel<String>(.held)
    let batch = probe.batchGetSome(["a", "b", "c"])
    probe.complete(1, with: .cancelled)
    probe.complete(2)
    probe.complete(0)
    #expect(batch.result?.value == ["a#0", "c#2"])
  }

  @Test("batchGetSome of no keys succeeds with no values")
  func someEmpty() {
    #expect(SpyLevel<String, Int>().batchGetSome([]).result?.value == [])
  }

  @Test("cancelling batchGetSome cancels every inner request")
  func someCancel() {
    let probe = ProbeLevel<String>(.held)
    let batch = probe.batchGetSome(["a", "b", "c"])
    batch.cancel()
    #expect(probe.cancelled.sorted() == [0, 1, 2])
  }

  @Test("allBatch gets every key concurrently and returns the values in key order")
  func allSucceeds() {
    let probe = ProbeLevel<String>(.held)
    let batch = probe.allBatch().get(["a", "b", "c"])
    #expect(probe.getCount == 3)
    probe.complete(1)
    probe.complete(2)
    probe.complete(0)
    #expect(batch.result?.value == ["a#0", "b#1", "c#2"])
  }

  @Test("allBatch fails on the first failing key and cancels the rest")
  func allFailsFast() {
    let probe = ProbeLevel<String>(.held)
    let batch = probe.allBatch().get(["a", "b", "c"])
    probe.complete(0)
    probe.complete(1, with: .error(TestError(2)))
    #expect(batch.result?.error as? TestError == TestError(2))
    #expect(probe.cancelled == [2])
  }

  @Test("cancelling an allBatch get cancels every inner request")
  func allCancel() {
    let probe = ProbeLevel<String>(.held)
    let batch = probe.allBatch().get(["a", "b"])
    batch.cancel()
    #expect(probe.cancelled.sorted() == [0, 1])
  }

  @Test("allBatch sets zip keys with values")
  func allSetZips() {
    let spy = SpyLevel<String, Int>()
    let batched = spy.allBatch()
    #expect(batched.set([1, 2, 3], forKey: ["a", "b", "c"]).result?.value != nil)
    #expect(spy.storage == ["a": 1, "b": 2, "c": 3])
    #expect(batched.get(["c", "a"]).result?.value == [3, 1])
  }

  @Test("allBatch set with mismatched counts fails with a clear error and stores nothing")
  func allSetMismatch() {
    let spy = SpyLevel<String, Int>()
    let result = spy.allBatch().set([1, 2], forKey: ["a"]).result
    #expect(result?.error as? BatchError == .keyValueCountMismatch(keys: 1, values: 2))
    #expect(spy.storage.isEmpty)
  }

  @Test("allBatch clear and memory warnings reach the level; an empty get succeeds")
  func allPassThrough() {
    let spy = SpyLevel<String, Int>()
    let batched = spy.allBatch()
    batched.clear()
    batched.onMemoryWarning()
    #expect(spy.clears == 1)
    #expect(spy.memoryWarnings == 1)
    #expect(batched.get([]).result?.value == [])
  }
}
