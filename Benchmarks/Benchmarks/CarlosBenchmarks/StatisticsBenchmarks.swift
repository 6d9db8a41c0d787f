import Benchmark
import Carlos
import Dispatch
import Foundation

/// A memory level holding every fixture value, with or without statistics.
func filledMemoryLevel(recordsStatistics: Bool) -> MemoryCacheLevel<String, Data> {
  let level = MemoryCacheLevel<String, Data>(
    capacity: 64 << 20, recordsStatistics: recordsStatistics)
  for i in 0..<Fixtures.keyCount { level.set(Fixtures.value(i), forKey: Fixtures.key(i)) }
  return level
}

/// A level with an observer of a key no benchmark uses.
final class ObservedLevel: Sendable {
  let level = filledMemoryLevel(recordsStatistics: true)
  let token: ObservationToken

  init() {
    token = level.observe(key: "not-a-fixture-key") { blackHole($0) }
  }
}

/// Gets every fixture key `rounds` times on each of two threads at once.
func twoThreadGets(_ level: MemoryCacheLevel<String, Data>, rounds: Int) {
  DispatchQueue.concurrentPerform(iterations: 2) { thread in
    for i in 0..<(rounds * Fixtures.keyCount) {
      level.get(Fixtures.key(i &+ thread &* 512)).onSuccess { blackHole($0) }
    }
  }
}

/// What statistics and observers cost on the memory level's hit path.
func statisticsBenchmarks() {
  Benchmark("memory.stats.get · baseline MemoryCacheLevel.get hit, no statistics") {
    benchmark, level in
    for i in benchmark.scaledIterations {
      level.get(Fixtures.key(i)).onSuccess { blackHole($0) }
    }
  } setup: {
    filledMemoryLevel(recordsStatistics: false)
  }

  Benchmark("memory.stats.get · Carlos MemoryCacheLevel.get hit, recording statistics") {
    benchmark, level in
    for i in benchmark.scaledIterations {
      level.get(Fixtures.key(i)).onSuccess { blackHole($0) }
    }
  } setup: {
    filledMemoryLevel(recordsStatistics: true)
  }

  Benchmark(
    "memory.stats.get · Carlos MemoryCacheLevel.get hit, statistics and an observer on another key"
  ) {
    benchmark, fixture in
    for i in benchmark.scaledIterations {
      fixture.level.get(Fixtures.key(i)).onSuccess { blackHole($0) }
    }
  } setup: {
    ObservedLevel()
  }

  let twoThreads = Benchmark.Configuration(
    metrics: [.wallClock, .throughput],
    timeUnits: .microseconds,
    warmupIterations: 2,
    scalingFactor: .one,
    maxDuration: .seconds(3),
    maxIterations: 200
  )
  Benchmark(
    "memory.stats.2threads · baseline 2 threads × 16,384 get hits, no statistics",
    configuration: twoThreads
  ) { benchmark, level in
    twoThreadGets(level, rounds: 16)
  } setup: {
    filledMemoryLevel(recordsStatistics: false)
  }

  Benchmark(
    "memory.stats.2threads · Carlos 2 threads × 16,384 get hits, recording statistics",
    configuration: twoThreads
  ) { benchmark, level in
    twoThreadGets(level, rounds: 16)
  } setup: {
    filledMemoryLevel(recordsStatistics: true)
  }
}
