import Carlos
import Testing

@Suite("RequestCapperCache(internalCache:requestCap:), the Carlos 0.x spelling")
struct RequestCapperCacheInternalCacheTests {
  @Test("It wraps the given level with requestCap as the limit")
  @available(*, deprecated)
  func caps() {
    let probe = ProbeLevel<String>(.held)
    let capped = RequestCapperCache(internalCache: probe, requestCap: 2)
    #expect(capped.inner === probe)
    #expect(capped.limit == 2)
    let futures = ["a", "b", "c"].map { capped.get($0) }
    #expect(probe.getCount == 2)
    probe.complete(0)
    #expect(probe.getCount == 3)
    probe.completeAll()
    #expect(futures.map { $0.result?.value } == ["a#0", "b#1", "c#2"])
  }
}
