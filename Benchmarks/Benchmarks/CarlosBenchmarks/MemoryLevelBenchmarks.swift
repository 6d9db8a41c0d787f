import Benchmark
import Carlos
import Foundation

/// A memory level holding every fixture value (4 MiB in all, well within its capacity).
func filledMemoryLevel() -> MemoryCacheLevel<String, Data> {
  let level = MemoryCacheLevel<String, Data>(capacity: 64 << 20)
  for i in 0..<Fixtures.keyCount { level.set(Fixtures.value(i), forKey: Fixtures.key(i)) }
  return level
}

/// `MemoryCacheLevel` against the baselines of `MemoryBaselineBenchmarks.swift`.
func memoryLevelBenchmarks() {
  Benchmark("memory.get · Carlos MemoryCacheLevel.get+onSuccess (hit)") { benchmark, level in
    for i in benchmark.scaledIterations {
      level.get(Fixtures.key(i)).onSuccess { blackHole($0) }
    }
  } setup: {
    filledMemoryLevel()
  }

  // Allocations per hit when the future outlives the call (kept by the caller), so
  // the optimizer cannot put it on the stack as it does above.
  Benchmark("memory.alloc · Carlos MemoryCacheLevel.get hit, future kept") { benchmark, level in
    for i in benchmark.scaledIterations {
      let future = level.get(Fixtures.key(i))
      blackHole(future)
      future.onSuccess { blackHole($0) }
    }
  } setup: {
    filledMemoryLevel()
  }

  Benchmark("memory.set · Carlos MemoryCacheLevel.set") { benchmark, level in
    for i in benchmark.scaledIterations {
      blackHole(level.set(Fixtures.value(i), forKey: Fixtures.key(i)))
    }
  } setup: {
    MemoryCacheLevel<String, Data>(capacity: 64 << 20)
  }
}
