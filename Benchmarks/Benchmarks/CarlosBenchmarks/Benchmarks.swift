import Benchmark

/// Every benchmark of the suite. Each subject sits next to its baseline, and the
/// names share a prefix so that the two are listed together:
/// `<group> · <subject>`, with the baseline's subject in the second part.
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .throughput, .mallocCountTotal],
    timeUnits: .nanoseconds,
    warmupIterations: 10,
    scalingFactor: .kilo,
    maxDuration: .seconds(2),
    maxIterations: 2_000
  )
  futureBenchmarks()
  memoryLevelBenchmarks()
  expiryBenchmarks()
  statisticsBenchmarks()
  concurrentMemoryBenchmarks()
  compositionBenchmarks()
  memoryScaleBenchmarks()
  memoryBaselineBenchmarks()
  diskBaselineBenchmarks()
  diskLevelBenchmarks()
  poolBenchmarks()
  asyncBenchmarks()
  tracingBenchmarks()
}
