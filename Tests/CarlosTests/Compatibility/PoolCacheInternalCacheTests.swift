import Carlos
import Testing

@Suite("PoolCache(internalCache:), the Carlos 0.x spelling")
struct PoolCacheInternalCacheTests {
  @Test("It wraps the given level and pools its gets like pooled()")
  @available(*, deprecated)
  func pools() {
    let probe = ProbeLevel<String>(.held)
    let pool = PoolCache(internalCache: probe)
    #expect(pool.inner === probe)
    let first = pool.get("k")
    let second = pool.get("k")
    #expect(probe.getCount == 1)
    probe.completeAll()
    #expect(first.result?.value == "k#0")
    #expect(second.result?.value == "k#0")
  }
}
