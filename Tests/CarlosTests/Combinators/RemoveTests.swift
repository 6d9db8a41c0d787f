import Dispatch
import Foundation
import Testing

@testable import Carlos

/// `remove(_:)`, `set(_:forKey:expiry:)` and `removeExpired()` through every combinator.
@Suite("Remove and expiry through combinators")
struct RemoveTests {
  private func succeeded(_ future: Future<Void>) async -> Bool {
    (try? await future.value) != nil
  }

  @Test("composition removes from both levels and succeeds when both do")
  func composition() async {
    let upper = SpyLevel<String, Int>(["k": 1])
    let lower = SpyLevel<String, Int>(["k": 2])
    #expect(await succeeded((upper >>> lower).remove("k")))
    #expect(upper.removes == ["k"] && lower.removes == ["k"])
    let failing = BasicCache<String, Int>(
      getClosure: { _ in Future(FetchError.valueNotInCache) },
      setClosure: { _, _ in Future() }, clearClosure: {}, memoryClosure: {},
      removeClosure: { _ in Future(TestError(3)) })
    let result = await diskTestFailure((upper >>> failing).remove("k"))
    #expect(result as? TestError == TestError(3))
  }

  @Test("an expiry given at set time reaches every level of a composition")
  func expiryReachesEveryLevel() async {
    let clock = ManualClock()
    let memory = MemoryCacheLevel<String, Int>(capacity: 100, clock: clock)
    let spy = SpyLevel<String, Int>()
    let cache = memory >>> spy
    #expect(await succeeded(cache.set(1, forKey: "k", expiry: .after(.seconds(5)))))
    #expect(spy.expiries == [.after(.seconds(5))])
    clock.advance(by: .seconds(5))
    #expect(memory.get("k").result?.value == nil)
  }

  @Test("removeExpired reaches both levels of a composition")
  func removeExpiredComposition() async {
    let upper = SpyLevel<String, Int>()
    let lower = SpyLevel<String, Int>()
    #expect(await succeeded((upper >>> lower).removeExpired()))
    #expect(upper.removeExpiredCount == 1 && lower.removeExpiredCount == 1)
  }

  @Test("key transformation maps the key before removing; a failing transformation fails")
  func keyTransformation() async {
    let spy = SpyLevel<String, Int>(["#1": 1])
    let cache = { (key: Int) in key >= 0 ? Future("#\(key)") : Future(TestError(9)) } =>> spy
    #expect(await succeeded(cache.remove(1)))
    #expect(spy.removes == ["#1"])
    #expect(await diskTestFailure(cache.remove(-1)) as? TestError == TestError(9))
    #expect(await succeeded(cache.set(2, forKey: 2, expiry: .never)))
    #expect(spy.storage["#2"] == 2)
  }

  @Test("value transformation passes remove through and transforms values set with an expiry")
  func valueTransformation() async {
    let spy = SpyLevel<String, Int>(["k": 1])
    let cache =
      spy
      =>> TwoWayTransformationBox<Int, String>(
        transform: { Future("\($0)") },
        inverseTransform: { Future(value: Int($0), error: TestError(1)) })
    #expect(await succeeded(cache.remove("k")))
    #expect(spy.removes == ["k"])
    #expect(await succeeded(cache.set("42", forKey: "j", expiry: .after(.seconds(1)))))
    #expect(spy.storage["j"] == 42)
    #expect(spy.expiries == [.after(.seconds(1))])
  }

  @Test("a conditioned level removes only when its condition allows")
  func conditioned() async {
    let spy = SpyLevel<String, Int>(["yes": 1, "no": 2])
    let cache = { (key: String) in Future(key == "yes") } <?> spy
    #expect(await succeeded(cache.remove("yes")))
    #expect(await diskTestFailure(cache.remove("no")) as? FetchError == .conditionNotSatisfied)
    #expect(spy.removes == ["yes"])
  }

  @Test(
    "post-processing, pooling, capping and normalizing forward remove, expiring set and removeExpired"
  )
  func forwarding() async {
    let spy = SpyLevel<String, Int>()
    let levels: [BasicCache<String, Int>] = [
      spy.postProcess(OneWayTransformationBox { Future($0) }),
      spy.pooled().normalize(),
      spy.capRequests(1).normalize(),
      spy.normalize(),
      (spy as any CacheLevel<String, Int>).normalize(),
      spy.dispatch(DispatchQueue(label: "test")),
    ]
    for level in levels {
      #expect(await succeeded(level.remove("k")))
      #expect(await succeeded(level.set(1, forKey: "k", expiry: .never)))
      #expect(await succeeded(level.removeExpired()))
    }
    #expect(spy.removes.count == levels.count)
    #expect(spy.expiries.count == levels.count)
    #expect(spy.removeExpiredCount == levels.count)
  }

  @Test(
    "switchLevels routes remove and expiring set to the chosen lane; removeExpired reaches both")
  func lanes() async {
    let a = SpyLevel<String, Int>()
    let b = SpyLevel<String, Int>()
    let cache = switchLevels(cacheA: a, cacheB: b) { $0.hasPrefix("a") ? .cacheA : .cacheB }
    #expect(await succeeded(cache.remove("a1")))
    #expect(await succeeded(cache.remove("b1")))
    #expect(await succeeded(cache.set(1, forKey: "b2", expiry: .never)))
    #expect(await succeeded(cache.removeExpired()))
    #expect(a.removes == ["a1"] && b.removes == ["b1"])
    #expect(b.expiries == [.never] && a.expiries.isEmpty)
    #expect(a.removeExpiredCount == 1 && b.removeExpiredCount == 1)
  }

  @Test("allBatch removes every key and sets every value with the expiry")
  func batches() async {
    let spy = SpyLevel<String, Int>(["a": 1, "b": 2, "c": 3])
    let batch = spy.allBatch()
    #expect(await succeeded(batch.remove(["a", "b"])))
    #expect(Set(spy.removes) == ["a", "b"])
    #expect(spy.storage == ["c": 3])
    #expect(await succeeded(batch.set([7, 8], forKey: ["x", "y"], expiry: .after(.seconds(1)))))
    #expect(spy.expiries.count == 2)
    let mismatch = await diskTestFailure(batch.set([1], forKey: ["x", "y"], expiry: .never))
    #expect(mismatch as? BatchError == .keyValueCountMismatch(keys: 2, values: 1))
  }

  @Test("fetchers succeed without storing; the identity level too")
  func fetchers() async {
    let fetcher = BasicFetcher<String, Int> { _ in Future(1) }
    #expect(await succeeded(fetcher.remove("k")))
    #expect(await succeeded(fetcher.set(1, forKey: "k", expiry: .after(.seconds(1)))))
    #expect(await succeeded(fetcher.removeExpired()))
    #expect(await succeeded(IdentityLevel<String, Int>().remove("k")))
  }

  @Test(
    "a BasicCache made without removeClosure says it cannot remove, and refuses expiring values")
  func basicCacheDefaults() async {
    let stored = Guarded<[String: Int]>([:])
    let cache = BasicCache<String, Int>(
      getClosure: { key in
        Future(value: stored.withLock { $0[key] }, error: FetchError.valueNotInCache)
      },
      setClosure: { value, key in
        stored.withLock { $0[key] = value }
        return Future()
      },
      clearClosure: {}, memoryClosure: {})
    #expect(await diskTestFailure(cache.remove("k")) as? FetchError == .removeNotSupported)
    #expect(await succeeded(cache.set(1, forKey: "k", expiry: .never)))
    #expect(stored.withLock { $0["k"] } == 1)
    let refused = await diskTestFailure(cache.set(2, forKey: "k", expiry: .after(.seconds(1))))
    // It cannot remove the older value either, so that failure comes first.
    #expect(refused as? FetchError == .removeNotSupported)
  }

  @Test("a level that can remove but not expire drops the older value and refuses an expiring one")
  func unsupportedExpiry() async {
    let spy = BasicCache<String, Int>(forwardingTo: SpyLevel<String, Int>(["k": 1]))
    let plain = BasicCache<String, Int>(
      getClosure: { spy.get($0) }, setClosure: { spy.set($0, forKey: $1) },
      clearClosure: {}, memoryClosure: {}, removeClosure: { spy.remove($0) })
    let refused = await diskTestFailure(plain.set(2, forKey: "k", expiry: .after(.seconds(1))))
    #expect(refused as? FetchError == .expiryNotSupported)
    #expect(plain.get("k").result?.error as? FetchError == .valueNotInCache)
  }
}
