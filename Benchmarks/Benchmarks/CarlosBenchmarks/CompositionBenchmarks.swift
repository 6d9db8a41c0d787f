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

  Benchmark("compose · Carlos (memory >>> memory >>> fetch).pooled()") { benchmark, level in
    for i in benchmark.scaledIterations {
      level.get(Fixtures.key(i)).onSuccess { blackHole($0) }
    }
  } setup: { () -> PoolCache<BasicCache<String, Data>> in
    (filledMemoryLevel() >>> MemoryCacheLevel<String, Data>(capacity: 64 << 20) >>> unreachableFetch)
      .pooled()
  }
}
