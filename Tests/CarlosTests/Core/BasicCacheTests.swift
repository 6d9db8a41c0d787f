import Carlos
import Testing

@Suite("BasicCache, BasicFetcher and IdentityLevel")
struct BasicCacheTests {
  @Test("BasicCache calls its closures; set receives value then key")
  func closures() {
    let calls = Lock<[String]>([])
    let cache = BasicCache<String, Int>(
      getClosure: { key in
        calls.withLock { $0.append("get \(key)") }
        return Future(1)
      },
      setClosure: { value, key in
        calls.withLock { $0.append("set \(value) \(key)") }
        return Future()
      },
      clearClosure: { calls.withLock { $0.append("clear") } },
      memoryClosure: { calls.withLock { $0.append("memory") } }
    )
    _ = cache.get("a")
    cache.set(2, forKey: "b")
    cache.clear()
    cache.onMemoryWarning()
    #expect(calls.withLock { $0 } == ["get a", "set 2 b", "clear", "memory"])
  }

  @Test("a fetcher's set succeeds and stores nothing")
  func fetcherSet() {
    let fetcher = BasicFetcher<String, Int> { _ in Future(FetchError.valueNotInCache) }
    #expect(fetcher.set(1, forKey: "a").result?.value != nil)
    #expect(fetcher.get("a").result?.error as? FetchError == .valueNotInCache)
  }

  @Test("the identity level never hits and accepts sets")
  func identity() {
    let identity = IdentityLevel<String, Int>()
    identity.set(1, forKey: "a")
    #expect(identity.get("a").result?.error as? FetchError == .valueNotInCache)
  }

  @Test("FetchError cases are distinct and described")
  func fetchErrors() {
    let all: [FetchError] = [
      .valueNotInCache, .noCacheLevelsRemaining, .invalidKey, .invalidCachedData,
      .conditionNotSatisfied, .keyTransformationFailed, .valueTransformationFailed,
    ]
    #expect(Set(all.map(\.description)).count == all.count)
  }
}
