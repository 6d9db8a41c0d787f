#if Observability
import Carlos
import CarlosMetrics
import Foundation
import Logging
import MetricsTestKit
import ServiceLifecycle
import Testing

@Suite("CarlosMetrics")
struct CarlosMetricsTests {
  @Test("statistics of named levels become counters, a hit-ratio gauge and a load timer")
  func publishes() throws {
    let metrics = TestMetrics()
    let memory = MemoryCacheLevel<String, Int>(capacity: 10)
    let recorded = memory.recordingStatistics("memory")
    let builtIn = CacheStatisticsSnapshot(name: "memory-builtin") { memory.statistics }
    let publisher = CacheMetricsPublisher(sources: [recorded, builtIn], factory: metrics)
    memory.set(1, forKey: "a")
    _ = recorded.get("a")
    _ = recorded.get("a")
    _ = recorded.get("missing")
    publisher.publish()
    let hits = try metrics.expectCounter("carlos_cache_hits", [("cache", "memory")])
    let misses = try metrics.expectCounter("carlos_cache_misses", [("cache", "memory")])
    #expect(hits.totalValue == 2)
    #expect(misses.totalValue == 1)
    let ratio = try metrics.expectGauge("carlos_cache_hit_ratio", [("cache", "memory")])
    #expect(abs((ratio.lastValue ?? 0) - 2.0 / 3.0) < 1e-9)
    let builtInHits = try metrics.expectCounter("carlos_cache_hits", [("cache", "memory-builtin")])
    #expect(builtInHits.totalValue == memory.statistics.hitCount)

    _ = recorded.get("a")
    publisher.publish()
    #expect(hits.totalValue == 3, "only what happened since the last publication is added")
  }

  @Test("a level that answers later publishes its loads as a timer")
  func loads() async throws {
    let metrics = TestMetrics()
    let slow = BasicFetcher<String, Data>(name: "slow") { key in
      try await Task.sleep(for: .milliseconds(2))
      guard key != "none" else { throw FetchError.valueNotInCache }
      return Data(key.utf8)
    }
    let level = slow.recordingStatistics("slow")
    let publisher = CacheMetricsPublisher(sources: [level], factory: metrics)
    _ = try await level.get("k")
    _ = try? await level.get("none")
    publisher.publish()
    let timer = try metrics.expectTimer("carlos_cache_load_duration", [("cache", "slow")])
    #expect(timer.values.count == 1, "one sample per publication: the mean of its loads")
    #expect((timer.lastValue ?? 0) > 0)
    let successes = try metrics.expectCounter("carlos_cache_load_successes", [("cache", "slow")])
    #expect(successes.totalValue == 1)
  }
}

@Suite("CacheMetricsPublisher as a Service")
struct CacheMetricsServiceTests {
  @Test("in a ServiceGroup it publishes at once, and once more at graceful shutdown")
  func publishesAtShutdown() async throws {
    let metrics = TestMetrics()
    let memory = MemoryCacheLevel<String, Int>(capacity: 10)
    let recorded = memory.recordingStatistics("memory")
    let publisher = CacheMetricsPublisher(
      sources: [recorded], factory: metrics, interval: .seconds(3600))
    let group = ServiceGroup(
      services: [publisher], gracefulShutdownSignals: [], cancellationSignals: [],
      logger: Logger(label: "carlos-test", factory: { _ in SwiftLogNoOpLogHandler() }))
    let running = Task { try await group.run() }
    try await memory.set(1, forKey: "a")
    for _ in 0..<400 {
      if (try? metrics.expectGauge("carlos_cache_hit_ratio", [("cache", "memory")])) != nil {
        break
      }
      try await Task.sleep(for: .milliseconds(5))
    }
    _ = try await recorded.get("a")
    _ = try await recorded.get("a")
    await group.triggerGracefulShutdown()
    try await running.value
    let hits = try metrics.expectCounter("carlos_cache_hits", [("cache", "memory")])
    #expect(
      hits.totalValue == 2, "the hits made after the first publication were published at shutdown")
  }
}
#endif
