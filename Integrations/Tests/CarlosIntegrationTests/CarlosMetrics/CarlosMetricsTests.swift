import Carlos
import CarlosMetrics
import CarlosPostgres
import Foundation
import MetricsTestKit
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

  @Test(
    "a PostgreSQL level publishes its loads as a timer", .enabled(if: !PostgresTestServer.skipped))
  func postgresLoads() async throws {
    let metrics = TestMetrics()
    try await PostgresTestServer.withClient { client in
      let level = try PostgresCacheLevel<String>(
        client: client, options: PostgresCacheOptions(namespace: PostgresTestServer.namespace()))
      let publisher = CacheMetricsPublisher(sources: [level], factory: metrics)
      try await level.set(Data("v".utf8), forKey: "k").value
      _ = try await level.get("k").value
      _ = try? await level.get("none").value
      publisher.publish()
      let timer = try metrics.expectTimer("carlos_cache_load_duration", [("cache", level.name)])
      #expect(timer.values.count == 1)
      #expect((timer.lastValue ?? 0) > 0)
      let successes = try metrics.expectCounter(
        "carlos_cache_load_successes", [("cache", level.name)])
      #expect(successes.totalValue == 1)
    }
  }
}
