import Benchmark
import Carlos
import CarlosTracing
import Foundation

/// What `traced()` costs on a memory hit when no tracer is bootstrapped (the
/// `NoOpTracer`): the wrapper must pass the get straight through.
func tracingBenchmarks() {
  Benchmark("tracing.get · baseline MemoryCacheLevel.get hit, not traced") {
    benchmark, level in
    for i in benchmark.scaledIterations {
      level.get(Fixtures.key(i)).onSuccess { blackHole($0) }
    }
  } setup: {
    filledMemoryLevel(recordsStatistics: false)
  }

  Benchmark("tracing.get · Carlos memory.traced() get hit, no tracer bootstrapped") {
    benchmark, level in
    for i in benchmark.scaledIterations {
      level.get(Fixtures.key(i)).onSuccess { blackHole($0) }
    }
  } setup: {
    filledMemoryLevel(recordsStatistics: false).traced("memory")
  }
}
