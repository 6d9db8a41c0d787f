import Benchmark
import Carlos
import Foundation

/// A memory level holding every fixture value, each expiring an hour after it was written.
func filledExpiringMemoryLevel() -> MemoryCacheLevel<String, Data> {
  let level = MemoryCacheLevel<String, Data>(
    capacity: 64 << 20, expiration: .afterWrite(.seconds(3_600)))
  for i in 0..<Fixtures.keyCount { level.set(Fixtures.value(i), forKey: Fixtures.key(i)) }
  return level
}

/// A level of `count` unit-cost entries, `expiring` of which expire in one second
/// (the others in a day), on a manual clock.
final class ExpiringFixture: Sendable {
  let clock = ManualClock()
  let level: MemoryCacheLevel<Int, Int>
  let count: Int
  let expiring: Int

  init(count: Int, expiring: Int) {
    self.count = count
    self.expiring = expiring
    level = MemoryCacheLevel<Int, Int>(capacity: count * 2, policy: .lru, clock: clock)
    for key in expiring..<count { level.set(key, forKey: key, expiry: .after(.seconds(86_400))) }
  }

  /// Stores the short-lived entries again and moves the clock past their expiry.
  func prepare() {
    for key in 0..<expiring { level.set(key, forKey: key, expiry: .after(.seconds(1))) }
    clock.advance(by: .seconds(2))
  }
}

/// Expiry on the memory level's hot paths, next to the same operations without it;
/// and `removeExpired()` on a small and a large level with as many expired entries.
func expiryBenchmarks() {
  Benchmark("memory.expiry.get · baseline MemoryCacheLevel.get hit, no expiry") {
    benchmark, level in
    for i in benchmark.scaledIterations {
      level.get(Fixtures.key(i)).onSuccess { blackHole($0) }
    }
  } setup: {
    filledMemoryLevel()
  }

  Benchmark("memory.expiry.get · Carlos MemoryCacheLevel.get hit, expire after write") {
    benchmark, level in
    for i in benchmark.scaledIterations {
      level.get(Fixtures.key(i)).onSuccess { blackHole($0) }
    }
  } setup: {
    filledExpiringMemoryLevel()
  }

  Benchmark("memory.expiry.set · baseline MemoryCacheLevel.set, no expiry") { benchmark, level in
    for i in benchmark.scaledIterations {
      blackHole(level.set(Fixtures.value(i), forKey: Fixtures.key(i)))
    }
  } setup: {
    MemoryCacheLevel<String, Data>(capacity: 64 << 20)
  }

  Benchmark("memory.expiry.set · Carlos MemoryCacheLevel.set, expire after write") {
    benchmark, level in
    for i in benchmark.scaledIterations {
      blackHole(level.set(Fixtures.value(i), forKey: Fixtures.key(i)))
    }
  } setup: {
    MemoryCacheLevel<String, Data>(capacity: 64 << 20, expiration: .afterWrite(.seconds(3_600)))
  }

  let removeExpired = Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal],
    timeUnits: .microseconds,
    warmupIterations: 1,
    scalingFactor: .one,
    maxDuration: .seconds(10),
    maxIterations: 30
  )
  // Equal times for the two sizes mean the work follows the expired entries.
  for (subject, count, label) in [
    ("baseline", 100_000, "100,000"), ("Carlos", 1_000_000, "1,000,000"),
  ] {
    Benchmark(
      "memory.removeExpired · \(subject) removeExpired(), 10,000 expired of \(label) entries",
      configuration: removeExpired
    ) { benchmark, fixture in
      fixture.prepare()
      benchmark.startMeasurement()
      blackHole(fixture.level.removeExpired())
      benchmark.stopMeasurement()
    } setup: {
      ExpiringFixture(count: count, expiring: 10_000)
    }
  }
}
