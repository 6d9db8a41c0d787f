import Carlos
import Foundation
import Testing

@Suite("Get-or-load: one load per key, stored")
struct GetOrLoadTests {
  @Test("a hit does not load; a miss loads, stores and returns the value")
  func loadsOnMiss() async throws {
    let memory = MemoryCacheLevel<String, String>()
    try await memory.set("cached", forKey: "a")
    let origin = AsyncOrigin()
    #expect(try await memory.get("a", orLoad: origin.load) == "cached")
    #expect(origin.calls == 0)
    #expect(try await memory.get("b", orLoad: origin.load) == "b from origin")
    #expect(try await memory.get("b") == "b from origin")
    #expect(origin.calls == 1)
  }

  @Test("100 concurrent callers of one key on one level share one load", arguments: [false, true])
  func sharesOneLoad(throughComposition: Bool) async throws {
    let origin = AsyncOrigin(held: true)
    let memory = MemoryCacheLevel<String, String>()
    let level: BasicCache<String, String> =
      throughComposition ? memory >>> MemoryCacheLevel<String, String>() : memory.named("memory")
    let callers = (0..<100).map { _ in level.get("k", orLoad: origin.load) as Future<String> }
    #expect(await eventually { origin.calls == 1 })
    origin.release()
    for caller in callers { #expect(try await caller.value == "k from origin") }
    #expect(origin.calls == 1)
    #expect(try await memory.get("k") == "k from origin")
  }

  @Test(
    "copies of one fetcher (a struct) are one level: their concurrent callers of a key share one load"
  )
  func fetcherCopiesShare() async throws {
    let origin = AsyncOrigin(held: true)
    let fetcher = BasicFetcher<String, String> { _ in throw FetchError.valueNotInCache }
    let copies = [fetcher, fetcher]
    let callers = (0..<100).map { copies[$0 % 2].get("k", orLoad: origin.load) as Future<String> }
    #expect(await eventually { origin.calls == 1 })
    origin.release()
    for caller in callers { #expect(try await caller.value == "k from origin") }
    #expect(origin.calls == 1)
    let other = BasicFetcher<String, String> { _ in throw FetchError.valueNotInCache }
    #expect(fetcher._loadIdentity != nil && fetcher._loadIdentity != other._loadIdentity)
  }

  @Test("callers on threads racing with the loads' completions never load one key twice at once")
  func racing() async throws {
    let memory = MemoryCacheLevel<Int, String>(capacity: 1)  // every new key evicts the last
    let state = Guarded((inFlight: [Int: Int](), most: 0, loads: 0))
    let loader: @Sendable (Int) -> Future<String> = { key in
      state.withLock { state in
        state.inFlight[key, default: 0] += 1
        state.most = max(state.most, state.inFlight[key]!)
        state.loads += 1
      }
      let promise = Promise<String>()
      DispatchQueue.global().async {
        state.withLock { $0.inFlight[key]! -= 1 }
        promise.succeed("\(key)")
      }
      return promise.future
    }
    let futures = await issueConcurrently(threads: 4, perThread: 500) { _, index in
      memory.get(index % 4, orLoad: loader)
    }
    #expect(await waitUntilCompleted(futures))
    #expect(futures.allSatisfy { $0.result?.value != nil })
    #expect(state.withLock { $0.most } == 1)
    #expect(state.withLock { $0.loads } >= 4)
  }

  @Test(
    "a failed load fails every caller waiting for it, stores nothing, and the next miss loads again"
  )
  func failedLoad() async throws {
    let origin = AsyncOrigin()
    let memory = MemoryCacheLevel<String, String>()
    await #expect(throws: FetchError.invalidKey) {
      try await memory.get("bad", orLoad: origin.load)
    }
    await #expect(throws: FetchError.valueNotInCache) { try await memory.get("bad") }
    await #expect(throws: FetchError.invalidKey) {
      try await memory.get("bad", orLoad: origin.load)
    }
    #expect(origin.calls == 2)
  }

  @Test("a caller that cancels leaves the others waiting; the last one to cancel cancels the load")
  func cancellation() async throws {
    let origin = AsyncOrigin(held: true)
    let memory = MemoryCacheLevel<String, String>()
    let first: Future<String> = memory.get("k", orLoad: origin.load)
    let second: Future<String> = memory.get("k", orLoad: origin.load)
    #expect(await eventually { origin.calls == 1 })
    first.cancel()
    #expect(origin.cancelled == 0)
    second.cancel()
    #expect(await eventually { origin.cancelled == 1 })
    let third: Future<String> = memory.get("k", orLoad: origin.load)
    #expect(await eventually { origin.calls == 2 })
    origin.release()
    #expect(try await third.value == "k from origin")
  }

  @Test("a loader can say how long its value is kept")
  func expiry() async throws {
    let clock = ManualClock()
    let memory = MemoryCacheLevel<String, String>(clock: clock)
    let value = try await memory.get(
      "k", orLoad: { key in Loaded("fresh", expiry: .after(.seconds(10))) })
    #expect(value == "fresh")
    #expect(try await memory.get("k") == "fresh")
    clock.advance(by: .seconds(11))
    await #expect(throws: FetchError.valueNotInCache) { try await memory.get("k") }
  }

  @Test("a Future-returning loader works the same way")
  func futureLoader() async throws {
    let memory = MemoryCacheLevel<String, String>()
    let future: Future<String> = memory.get("k", orLoad: { key in Future("\(key)!") })
    #expect(try await future.value == "k!")
    #expect(try await memory.get("k") == "k!")
  }

  @Test(
    "50 concurrent callers of memory >>> disk >>> origin share one pass: the origin is asked once")
  func sharesOnePassThroughAPipeline() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let origin = AsyncOrigin(held: true)
    let loader = AsyncOrigin()
    let memory = MemoryCacheLevel<String, String>()
    let disk = DiskCacheLevel<String, String>(path: folder.path)
    let cache = memory >>> disk >>> origin.load
    let callers = (0..<50).map { _ in cache.get("k", orLoad: loader.load) as Future<String> }
    #expect(await eventually { origin.calls == 1 })
    origin.release()
    for caller in callers { #expect(try await caller.value == "k from origin") }
    #expect(origin.calls == 1)
    #expect(loader.calls == 0)
    #expect(try await memory.get("k") == "k from origin")
  }

  @Test("the loader runs once, only after every level of the pipeline missed")
  func loadsOnceWhenEveryLevelMissed() async throws {
    let lower = ProbeLevel<String>(.held)
    let loader = AsyncOrigin()
    let memory = MemoryCacheLevel<String, String>()
    let cache = memory >>> lower
    let callers = (0..<50).map { _ in cache.get("k", orLoad: loader.load) as Future<String> }
    #expect(await eventually { lower.gets == ["k"] })
    #expect(loader.calls == 0)
    for request in lower.open {
      lower.complete(request.number, with: .error(FetchError.valueNotInCache))
    }
    for caller in callers { #expect(try await caller.value == "k from origin") }
    #expect(lower.gets == ["k"])
    #expect(loader.calls == 1)
    #expect(try await memory.get("k") == "k from origin")
  }

  @Test(
    "transformed and conditioned levels share one pass too",
    arguments: ["keys", "values", "condition", "post-process"])
  func sharesThroughCombinators(combinator: String) async throws {
    let lower = ProbeLevel<String>(.held)
    let loader = AsyncOrigin()
    let cache: BasicCache<String, String>
    switch combinator {
    case "keys": cache = ({ (key: String) in Future(key) } =>> lower).normalize()
    case "values":
      cache = lower.transformValues(
        TwoWayTransformationBox<String, String>(
          transform: { Future($0) }, inverseTransform: { Future($0) })
      ).normalize()
    case "condition": cache = ({ (_: String) in Future(true) } <?> lower).normalize()
    default:
      cache = lower.postProcess(OneWayTransformationBox<String, String> { Future($0) })
        .normalize()
    }
    let callers = (0..<20).map { _ in cache.get("k", orLoad: loader.load) as Future<String> }
    #expect(await eventually { lower.gets.count == 1 })
    lower.completeAll()
    for caller in callers { #expect(try await caller.value == "k#0") }
    #expect(lower.gets == ["k"])
    #expect(loader.calls == 0)
  }

  @Test("when every caller cancels during the levels' gets, the pass is cancelled")
  func cancellingThePassDuringGets() async throws {
    let lower = ProbeLevel<String>(.held)
    let loader = AsyncOrigin()
    let cache = MemoryCacheLevel<String, String>() >>> lower
    let first: Future<String> = cache.get("k", orLoad: loader.load)
    let second: Future<String> = cache.get("k", orLoad: loader.load)
    #expect(await eventually { lower.gets.count == 1 })
    first.cancel()
    #expect(lower.cancelled.isEmpty)
    second.cancel()
    #expect(await eventually { lower.cancelled.count == 1 })
    #expect(loader.calls == 0)
  }
}
