import Benchmark
import Carlos
import Foundation

/// A fetch closure that is never reached when the first level hits.
let unreachableFetch: @Sendable (String) -> Future<Data> = { _ in Future(FetchError.valueNotInCache)
}

/// Composed levels hitting their first level, against one `MemoryCacheLevel.get`.
func compositionBenchmarks() {
  Benchmark("compose · baseline single MemoryCacheLevel.get+onSuccess") { benchmark, level in
    for i in benchmark.scaledIterations {
      level.get(Fixtures.key(i)).onSuccess { blackHole($0) }
    }
  } setup: {
    filledMemoryLevel()
  }

  Benchmark("compose · Carlos memory >>> memory >>> fetch, first level hits") { benchmark, level in
    for i in benchmark.scaledIterations {
      level.get(Fixtures.key(i)).onSuccess { blackHole($0) }
    }
  } setup: { () -> BasicCache<String, Data> in
    filledMemoryLevel() >>> MemoryCacheLevel<String, Data>(capacity: 64 << 20) >>> unreachableFetch
  }

  Benchmark("compose · Carlos key closure =>> (memory >>> memory >>> fetch)") { benchmark, level in
    for i in benchmark.scaledIterations {
      level.get(i & (Fixtures.keyCount - 1)).onSuccess { blackHole($0) }
    }
  } setup: { () -> BasicCache<Int, Data> in
    let keyOf: @Sendable (Int) -> Future<String> = { Future(Fixtures.keys[$0]) }
    let levels =
      filledMemoryLevel() >>> MemoryCacheLevel<String, Data>(capacity: 64 << 20)
      >>> unreachableFetch
    return keyOf =>> levels
  }

  Benchmark("compose · Carlos memory >>> memory, second level hits (copied up)") {
    benchmark, level in
    for i in benchmark.scaledIterations {
      level.get(Fixtures.key(i)).onSuccess { blackHole($0) }
    }
  } setup: { () -> BasicCache<String, Data> in
    oneValueLevel() >>> filledMemoryLevel()
  }

  Benchmark(
    "compose · Carlos memory >>> memory, second level hits (copied up with the expiry they have below)"
  ) { benchmark, level in
    for i in benchmark.scaledIterations {
      level.get(Fixtures.key(i)).onSuccess { blackHole($0) }
    }
  } setup: { () -> BasicCache<String, Data> in
    let lower = MemoryCacheLevel<String, Data>(capacity: 64 << 20)
    for i in 0..<Fixtures.keyCount {
      lower.set(Fixtures.value(i), forKey: Fixtures.key(i), expiry: .after(.seconds(3_600)))
    }
    return oneValueLevel() >>> lower
  }

  Benchmark("compose · Carlos (memory >>> memory >>> fetch).pooled()") { benchmark, level in
    for i in benchmark.scaledIterations {
      level.get(Fixtures.key(i)).onSuccess { blackHole($0) }
    }
  } setup: { () -> PoolCache<BasicCache<String, Data>> in
    (filledMemoryLevel() >>> MemoryCacheLevel<String, Data>(capacity: 64 << 20) >>> unreachableFetch)
      .pooled()
  }
}

/// A first level that holds one value, so that nearly every get falls through to the
/// second level and copies the value up.
func oneValueLevel() -> MemoryCacheLevel<String, Data> {
  MemoryCacheLevel<String, Data>(capacity: 4_096, cost: { $0.count })
}
