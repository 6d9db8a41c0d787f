import Carlos
import Testing

/// A value found below is written back only if no write of its key went through
/// the composition since the get started.
@Suite("Composition coherence")
struct CoherenceTests {
  @Test("a set during a slow fetch wins: the fetch does not write back over it")
  func setDuringFetch() async throws {
    let memory = MemoryCacheLevel<String, String>(capacity: 1_000)
    let fetch = Promise<String>()
    let cache = memory >>> { _ in fetch.future }
    let get: Future<_> = cache.get("k")
    try await cache.set("new-set-by-user", forKey: "k")
    fetch.succeed("old-from-network")
    #expect(try await get.value == "old-from-network")
    #expect(memory.get("k").result?.value == "new-set-by-user")
  }

  @Test("a remove during a slow fetch wins: nothing is written back")
  func removeDuringFetch() async throws {
    let memory = MemoryCacheLevel<String, String>(capacity: 1_000)
    let fetch = Promise<String>()
    let cache = memory >>> { _ in fetch.future }
    let get: Future<_> = cache.get("k")
    try await cache.remove("k")
    fetch.succeed("old")
    _ = try await get.value
    #expect(memory.get("k").result?.error as? FetchError == .valueNotInCache)
  }

  @Test("a clear during a slow fetch wins: nothing is written back")
  func clearDuringFetch() async throws {
    let memory = MemoryCacheLevel<String, String>(capacity: 1_000)
    let fetch = Promise<String>()
    let cache = memory >>> { _ in fetch.future }
    let get: Future<_> = cache.get("k")
    cache.clear()
    fetch.succeed("old")
    _ = try await get.value
    #expect(memory.count == 0)
  }

  @Test("a write of another key does not stop the write-back")
  func otherKeyWrite() async throws {
    let memory = MemoryCacheLevel<Int, String>(capacity: 1_000)
    let fetch = Promise<String>()
    let cache = memory >>> { _ in fetch.future }
    let get: Future<_> = cache.get(1)
    // Keys in other stripes; one of them lands in key 1's stripe at most by hash, so use several.
    let others = (2..<200).filter { cache.set("x", forKey: $0).isCompleted }
    #expect(others.count == 198)
    fetch.succeed("fetched")
    _ = try await get.value
    // Either written back, or skipped because another key shared its stripe: never stale.
    let stored = memory.get(1).result?.value
    #expect(stored == nil || stored == "fetched")
  }

  @Test("a write-back after the get is done with no write in between fills the upper level")
  func plainWriteBack() async throws {
    let memory = MemoryCacheLevel<String, String>(capacity: 1_000)
    let cache = memory >>> { key in Future("fetched \(key)") }
    #expect(try await cache.get("a").value == "fetched a")
    #expect(memory.get("a").result?.value == "fetched a")
  }

  @Test("two threads setting one key at once leave both levels with the same value")
  func concurrentSetsAgree() async {
    for round in 0..<200 {
      let upper = MemoryCacheLevel<String, Int>(capacity: 1_000)
      let lower = MemoryCacheLevel<String, Int>(capacity: 1_000)
      let cache = upper >>> lower
      let futures = await issueConcurrently(threads: 2, perThread: 50) { thread, index in
        cache.set(thread * 1_000 + index, forKey: "k")
      }
      #expect(await waitUntilCompleted(futures))
      #expect(upper.get("k").result?.value == lower.get("k").result?.value, "round \(round)")
    }
  }
}
