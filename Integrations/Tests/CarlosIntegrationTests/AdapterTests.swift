import Carlos
import CarlosLogging
import CarlosMetrics
import CarlosPostgres
import Foundation
import Logging
import MetricsTestKit
import Synchronization
import Testing

/// A swift-log handler that keeps what it receives.
struct CollectingLogHandler: LogHandler {
  final class Store: Sendable {
    let entries = Mutex<[(Logging.Logger.Level, String, Logging.Logger.Metadata)]>([])
  }
  let store: Store
  var metadata: Logging.Logger.Metadata = [:]
  var logLevel: Logging.Logger.Level = .trace

  subscript(metadataKey key: String) -> Logging.Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    store.entries.withLock {
      $0.append((event.level, event.message.description, event.metadata ?? [:]))
    }
  }
}

@Suite("CarlosLogging", .serialized)
struct CarlosLoggingTests {
  @Test(
    "Carlos messages reach the swift-log logger with mapped levels and the level/key as metadata")
  func routesMessages() {
    let store = CollectingLogHandler.Store()
    defer { CarlosLogHandler.stopRouting() }
    CarlosLogHandler.route(
      to: Logging.Logger(label: "test") { _ in CollectingLogHandler(store: store) })
    Carlos.Logger.log("plain warning", .warning)
    Carlos.Logger.log("with context", .error, metadata: ["level": "postgres", "key": "k"])
    Carlos.Logger.log("debug note", .debug)
    Carlos.Logger.log("info note", .info)
    let entries = store.entries.withLock { $0 }.filter {
      $0.1.hasSuffix("warning") || $0.1.hasSuffix("context") || $0.1.hasSuffix("note")
    }
    #expect(entries.map(\.0) == [.warning, .error, .debug, .info])
    #expect(entries[1].2["carlos.level"] == .string("postgres"))
    #expect(entries[1].2["carlos.key"] == .string("k"))
  }

  @Test("a failed write-back in a composition is logged with its key")
  func writeBackFailure() async {
    let store = CollectingLogHandler.Store()
    defer { CarlosLogHandler.stopRouting() }
    CarlosLogHandler.route(
      to: Logging.Logger(label: "test") { _ in CollectingLogHandler(store: store) })
    let failing = BasicCache<String, Int>(
      getClosure: { _ in Future(FetchError.valueNotInCache) },
      setClosure: { _, _ in Future(FetchError.invalidKey) }, clearClosure: {}, memoryClosure: {})
    let cache = failing >>> BasicFetcher<String, Int> { _ in Future(1) }
    #expect(cache.get("answer").result?.value == 1)
    #expect(
      store.entries.withLock { $0 }.contains {
        $0.0 == .warning && $0.2["carlos.key"] == .string("answer")
      })
  }
}

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
