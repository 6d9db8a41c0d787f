import Carlos
import Testing

@Suite("BatchAllCache, the type allBatch() returns")
struct BatchAllCacheTests {
  @Test("allBatch() can be stored as a BatchAllCache of the level")
  func namesTheResult() {
    let spy = SpyLevel<String, Int>(["a": 1, "b": 2])
    let batch: BatchAllCache<[String], SpyLevel<String, Int>> = spy.allBatch()
    #expect(batch.get(["b", "a"]).result?.value == [2, 1])
  }

  @Test("A BatchAllCache sets every key and composes like any level")
  func setsAndComposes() {
    let spy = SpyLevel<String, Int>()
    let batch: BatchAllCache<[String], SpyLevel<String, Int>> = spy.allBatch()
    batch.set([1, 2], forKey: ["x", "y"])
    #expect(spy.storage == ["x": 1, "y": 2])
    let fallback = BasicFetcher<[String], [Int]> { keys in Future(keys.map(\.count)) }
    let composed = batch >>> fallback
    #expect(composed.get(["x", "zzz"]).result?.value == [1, 3])
  }
}
