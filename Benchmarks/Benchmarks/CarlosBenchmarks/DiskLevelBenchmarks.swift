import Benchmark
import Carlos
import Dispatch
import Foundation

/// Blocks until `future` completes and returns its result: at once when it is
/// already complete, otherwise on a semaphore its callback signals.
func waitForResult<Value: Sendable>(_ future: Future<Value>) -> FutureResult<Value> {
  if let result = future.result { return result }
  let done = DispatchSemaphore(value: 0)
  future.onCompletion { _ in done.signal() }
  done.wait()
  guard let result = future.result else { fatalError("a completed future has no result") }
  return result
}

/// `DiskCacheLevel` against the baselines of `DiskBaselineBenchmarks.swift`, on the
/// same thread as they are (the benchmark's own, not a task of the concurrency pool).
func diskLevelBenchmarks() {
  let configuration = diskConfiguration

  Benchmark("disk.get · Carlos DiskCacheLevel.get, waited for", configuration: configuration) {
    benchmark, level in
    for i in benchmark.scaledIterations {
      blackHole(waitForResult(level.get(Fixtures.key(i))))
    }
  } setup: { () -> DiskCacheLevel<String, Data> in
    let level = DiskCacheLevel<String, Data>(
      path: Fixtures.makeTemporaryFolder("disk-level-get"), capacity: 64 << 20)
    for i in 0..<Fixtures.keyCount {
      guard case .success = waitForResult(level.set(Fixtures.value(i), forKey: Fixtures.key(i)))
      else {
        fatalError("the disk level refused a value")
      }
    }
    return level
  }

  Benchmark("disk.set · Carlos DiskCacheLevel.set, waited for", configuration: configuration) {
    benchmark, level in
    for i in benchmark.scaledIterations {
      blackHole(waitForResult(level.set(Fixtures.value(i), forKey: Fixtures.key(i))))
    }
  } setup: {
    DiskCacheLevel<String, Data>(
      path: Fixtures.makeTemporaryFolder("disk-level-set"), capacity: 64 << 20)
  }
}
