import Benchmark
import Carlos
import Foundation

/// `DiskCacheLevel` against the baselines of `DiskBaselineBenchmarks.swift`.
func diskLevelBenchmarks() {
  let configuration = diskConfiguration

  Benchmark("disk.get · Carlos DiskCacheLevel.get, await value", configuration: configuration) {
    benchmark, level in
    for i in benchmark.scaledIterations {
      blackHole(try await level.get(Fixtures.key(i)).value)
    }
  } setup: { () -> DiskCacheLevel<String, Data> in
    let level = DiskCacheLevel<String, Data>(path: Fixtures.makeTemporaryFolder("disk-level-get"), capacity: 64 << 20)
    for i in 0..<Fixtures.keyCount { _ = try await level.set(Fixtures.value(i), forKey: Fixtures.key(i)).value }
    return level
  }

  Benchmark("disk.set · Carlos DiskCacheLevel.set, await value", configuration: configuration) {
    benchmark, level in
    for i in benchmark.scaledIterations {
      try await level.set(Fixtures.value(i), forKey: Fixtures.key(i)).value
    }
  } setup: { () -> DiskCacheLevel<String, Data> in
    DiskCacheLevel<String, Data>(path: Fixtures.makeTemporaryFolder("disk-level-set"), capacity: 64 << 20)
  }
}
