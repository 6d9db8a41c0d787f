import Carlos
import Testing

@Suite("Composition")
struct ComposeTests {
  @Test("a hit in the upper level never asks the lower level")
  func upperHit() throws {
    let upper = SpyLevel<String, Int>(["k": 1])
    let lower = SpyLevel<String, Int>(["k": 2])
    let cache = upper >>> lower
    #expect(Outcome(cache.get("k")) == .success(1))
    #expect(lower.gets.isEmpty)
  }

  @Test("a miss falls through to the lower level and writes the value back up")
  func fallThroughAndWriteBack() {
    let upper = SpyLevel<String, Int>()
    let lower = SpyLevel<String, Int>(["k": 2])
    let cache = upper.compose(lower)
    #expect(Outcome(cache.get("k")) == .success(2))
    #expect(lower.gets == ["k"])
    #expect(upper.storage["k"] == 2)
    #expect(Outcome(cache.get("k")) == .success(2))
    #expect(lower.gets == ["k"])
  }

  @Test("when both miss, the get fails with the lower level's error")
  func bothMiss() {
    let upper = SpyLevel<String, Int>()
    let lower = BasicFetcher<String, Int> { _ in Future(TestError(7)) }
    let result = (upper >>> lower).get("k").result
    #expect(result?.error as? TestError == TestError(7))
  }

  @Test("set stores into both levels and fails when either fails")
  func setOnBoth() {
    let upper = SpyLevel<String, Int>()
    let lower = SpyLevel<String, Int>()
    #expect((upper >>> lower).set(3, forKey: "k").result?.value != nil)
    #expect(upper.storage["k"] == 3)
    #expect(lower.storage["k"] == 3)

    let failingLower = SpyLevel<String, Int>(setError: TestError(1))
    let failed = (upper >>> failingLower).set(4, forKey: "k")
    #expect(failed.result?.error as? TestError == TestError(1))
    let failingUpper = SpyLevel<String, Int>(setError: TestError(2))
    #expect(
      (failingUpper >>> lower).set(4, forKey: "k").result?.error as? TestError == TestError(2))
  }

  @Test("clear and memory warnings reach both levels")
  func clearAndMemoryWarning() {
    let upper = SpyLevel<String, Int>()
    let lower = SpyLevel<String, Int>()
    let cache = upper >>> lower
    cache.clear()
    cache.onMemoryWarning()
    #expect(upper.clears == 1 && lower.clears == 1)
    #expect(upper.memoryWarnings == 1 && lower.memoryWarnings == 1)
  }

  @Test("cancelling the composed get cancels the upper request while it runs")
  func cancelReachesUpper() {
    let upper = SpyLevel<String, Int>(holdsGets: true)
    let lower = SpyLevel<String, Int>(["k": 1])
    let request = (upper >>> lower).get("k")
    request.cancel()
    #expect(upper.pending.first?.future.result?.isCancelled == true)
    #expect(lower.gets.isEmpty)
  }

  @Test("cancelling the composed get cancels the lower request once it runs")
  func cancelReachesLower() {
    let upper = SpyLevel<String, Int>()
    let lower = SpyLevel<String, Int>(holdsGets: true)
    let request = (upper >>> lower).get("k")
    #expect(lower.pending.count == 1)
    request.cancel()
    #expect(lower.pending[0].future.result?.isCancelled == true)
    lower.pending[0].succeed(5)
    #expect(Outcome(request) == .cancelled)
    #expect(upper.storage["k"] == nil)
  }

  @Test("a cancelled upper get does not fall through")
  func cancelledUpperDoesNotFallThrough() {
    let upper = SpyLevel<String, Int>(holdsGets: true)
    let lower = SpyLevel<String, Int>(["k": 1])
    let request = (upper >>> lower).get("k")
    upper.pending[0].cancel()
    #expect(Outcome(request) == .cancelled)
    #expect(lower.gets.isEmpty)
  }

  @Test("fetch closures stand in for levels on either side")
  func closuresOnEitherSide() {
    let memory = SpyLevel<String, Int>()
    let fetch: @Sendable (String) -> Future<Int> = { Future($0.count) }
    let below = memory >>> fetch
    #expect(Outcome(below.get("four")) == .success(4))
    #expect(memory.storage["four"] == 4)

    let above = fetch >>> memory
    #expect(Outcome(above.get("abc")) == .success(3))
    #expect(above.set(9, forKey: "x").result?.value != nil)
    #expect(memory.storage["x"] == 9)
  }

  @Test("pending gets in both levels resolve in order")
  func asynchronousLevels() async throws {
    let upper = BasicCache<Int, Int>(
      getClosure: { _ in Future(FetchError.valueNotInCache).snooze(0.001) },
      setClosure: { _, _ in Future() },
      clearClosure: {},
      memoryClosure: {}
    )
    let lower = BasicFetcher<Int, Int> { key in Future(key * 10).snooze(0.001) }
    #expect(try await (upper >>> lower).get(4).value == 40)
  }
}
