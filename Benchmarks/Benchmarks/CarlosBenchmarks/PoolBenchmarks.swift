import Benchmark
import Carlos
import Dispatch
import Foundation
import Synchronization

/// A fetcher whose requests stay pending until the benchmark completes them, and
/// that counts how many requests it started.
final class HeldFetcher: Fetcher, Sendable {
  typealias KeyType = String
  typealias OutputType = Data

  private let requests = Mutex<[Promise<Data>]>([])

  func get(_ key: String) -> Future<Data> {
    let promise = Promise<Data>()
    requests.withLock { $0.append(promise) }
    return promise.future
  }

  /// Succeeds every request started so far; returns how many there were.
  func completeAll(with value: Data) -> Int {
    let started = requests.withLock { requests in
      defer { requests.removeAll() }
      return requests
    }
    for promise in started { promise.succeed(value) }
    return started.count
  }
}

/// Counts completed callbacks across threads.
final class Countdown: Sendable {
  private let done = Atomic<Int>(0)

  func tick() { done.add(1, ordering: .releasing) }

  /// Waits until `count` callbacks have run, then resets.
  func wait(for count: Int) {
    while done.load(ordering: .acquiring) < count { sched_yield() }
    done.store(0, ordering: .relaxed)
  }
}

/// Issues `count` gets for one key from every processor at once, completes the
/// inner request(s) and waits for every caller's callback. Returns the number of
/// inner requests.
func concurrentGets<Level: CacheLevel>(
  _ level: Level, fetcher: HeldFetcher, countdown: Countdown, count: Int
) -> Int where Level.KeyType == String, Level.OutputType == Data {
  DispatchQueue.concurrentPerform(iterations: count) { _ in
    level.get("shared-key").onSuccess { _ in countdown.tick() }
  }
  let inner = fetcher.completeAll(with: Fixtures.value(0))
  countdown.wait(for: count)
  return inner
}

/// Request pooling: 1,000 concurrent gets of one key.
func poolBenchmarks() {
  let configuration = Benchmark.Configuration(
    metrics: [
      .wallClock, .throughput, .mallocCountTotal,
      .custom("inner requests", useScalingFactor: false),
    ],
    timeUnits: .microseconds,
    scalingFactor: .one,
    maxDuration: .seconds(2),
    maxIterations: 1_000
  )

  Benchmark(
    "pool.1000 · Carlos pooled() 1,000 concurrent gets of one key", configuration: configuration
  ) {
    benchmark, fixture in
    var inner = 0
    for _ in benchmark.scaledIterations {
      inner += concurrentGets(
        fixture.level, fetcher: fixture.fetcher, countdown: fixture.countdown, count: 1_000)
    }
    benchmark.measurement(.custom("inner requests", useScalingFactor: false), inner)
  } setup: { () -> (level: PoolCache<HeldFetcher>, fetcher: HeldFetcher, countdown: Countdown) in
    let fetcher = HeldFetcher()
    return (fetcher.pooled(), fetcher, Countdown())
  }

  Benchmark("pool.1000 · baseline 1,000 concurrent gets, no pooling", configuration: configuration)
  {
    benchmark, fixture in
    var inner = 0
    for _ in benchmark.scaledIterations {
      inner += concurrentGets(
        fixture.fetcher, fetcher: fixture.fetcher, countdown: fixture.countdown, count: 1_000)
    }
    benchmark.measurement(.custom("inner requests", useScalingFactor: false), inner)
  } setup: { () -> (fetcher: HeldFetcher, countdown: Countdown) in
    (HeldFetcher(), Countdown())
  }

  sharedPromiseBenchmark()
}

/// The floor of sharing one request: 1,000 concurrent callbacks on one promise.
func sharedPromiseBenchmark() {
  Benchmark(
    "pool.1000 · baseline 1,000 concurrent onSuccess on one Promise",
    configuration: .init(
      metrics: [.wallClock, .throughput, .mallocCountTotal],
      timeUnits: .microseconds,
      scalingFactor: .one,
      maxDuration: .seconds(2),
      maxIterations: 1_000
    )
  ) { benchmark, countdown in
    for _ in benchmark.scaledIterations {
      let promise = Promise<Data>()
      DispatchQueue.concurrentPerform(iterations: 1_000) { _ in
        promise.future.onSuccess { _ in countdown.tick() }
      }
      promise.succeed(Fixtures.value(0))
      countdown.wait(for: 1_000)
    }
  } setup: {
    Countdown()
  }
}
