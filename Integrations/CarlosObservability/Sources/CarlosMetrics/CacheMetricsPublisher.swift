#if Observability
import Carlos
import CoreMetrics
import ServiceLifecycle
import Synchronization

/// Publishes the ``CacheStatistics`` of named levels as swift-metrics metrics.
///
/// ```swift
/// let memory = MemoryCacheLevel<String, Data>().recordingStatistics("memory")
/// let publisher = CacheMetricsPublisher(sources: [memory, postgresLevel])
/// Task { await publisher.run(every: .seconds(10)) }
/// ```
///
/// It is also a `Service`: in a `ServiceGroup` it publishes every ``interval`` and
/// once more at graceful shutdown, so the last figures are not lost.
///
/// Each source (anything that is a `CacheStatisticsSource`: levels made with
/// `recordingStatistics(_:)`, `PostgresCacheLevel`, or a ``CacheStatisticsSnapshot``
/// wrapping the `statistics` of a built-in level) is published under the dimension
/// `cache=<name>`, each time ``publish()`` runs:
/// - counters `carlos_cache_hits`, `carlos_cache_misses`, `carlos_cache_load_successes`,
///   `carlos_cache_load_failures`, `carlos_cache_evictions`, `carlos_cache_evicted_cost`,
///   incremented by what happened since the previous publication;
/// - gauge `carlos_cache_hit_ratio`: the hit rate since the level was created;
/// - timer `carlos_cache_load_duration`: one sample per publication with new loads,
///   their mean duration over the interval (the statistics keep only a total).
public final class CacheMetricsPublisher: Service {
  /// The prefix of every metric label.
  public let prefix: String
  /// How often ``run()`` publishes.
  public let interval: Duration

  private let entries: [Entry]

  private final class Entry: Sendable {
    let source: any CacheStatisticsSource
    let last = Mutex(CacheStatistics())
    let hits, misses, loadSuccesses, loadFailures, evictions, evictedCost: Counter
    let hitRatio: Gauge
    let loadDuration: Timer

    init(_ source: any CacheStatisticsSource, prefix: String, factory: any MetricsFactory) {
      self.source = source
      let dimensions = [("cache", source.name)]
      func counter(_ name: String) -> Counter {
        Counter(label: "\(prefix)_\(name)", dimensions: dimensions, factory: factory)
      }
      hits = counter("hits")
      misses = counter("misses")
      loadSuccesses = counter("load_successes")
      loadFailures = counter("load_failures")
      evictions = counter("evictions")
      evictedCost = counter("evicted_cost")
      hitRatio = Gauge(label: "\(prefix)_hit_ratio", dimensions: dimensions, factory: factory)
      loadDuration = Timer(
        label: "\(prefix)_load_duration", dimensions: dimensions, factory: factory)
    }

    func publish() {
      let now = source.statistics
      let delta = last.withLock { last in
        defer { last = now }
        return now - last
      }
      if delta.hitCount > 0 { hits.increment(by: delta.hitCount) }
      if delta.missCount > 0 { misses.increment(by: delta.missCount) }
      if delta.loadSuccessCount > 0 { loadSuccesses.increment(by: delta.loadSuccessCount) }
      if delta.loadFailureCount > 0 { loadFailures.increment(by: delta.loadFailureCount) }
      if delta.evictionCount > 0 { evictions.increment(by: delta.evictionCount) }
      if delta.evictedCost > 0 { evictedCost.increment(by: delta.evictedCost) }
      hitRatio.record(now.hitRate)
      if delta.loadCount > 0 {
        loadDuration.recordNanoseconds(nanoseconds(delta.averageLoadPenalty))
      }
    }
  }

  /// Creates a publisher of `sources`, with metrics made by `factory` (the
  /// bootstrapped `MetricsSystem.factory` by default), that publishes every
  /// `interval` when run as a service.
  public init(
    sources: [any CacheStatisticsSource], prefix: String = "carlos_cache",
    factory: (any MetricsFactory)? = nil, interval: Duration = .seconds(10)
  ) {
    self.prefix = prefix
    self.interval = interval
    let factory = factory ?? MetricsSystem.factory
    entries = sources.map { Entry($0, prefix: prefix, factory: factory) }
  }

  /// Publishes what each source did since the previous publication.
  public func publish() {
    for entry in entries { entry.publish() }
  }

  /// Publishes every `interval` until the calling task is cancelled, and once more then.
  public func run(every interval: Duration) async {
    while !Task.isCancelled {
      publish()
      do { try await Task.sleep(for: interval) } catch { break }
    }
    publish()
  }

  /// Publishes every ``interval`` until the task is cancelled or its service group
  /// shuts down gracefully, and once more then.
  public func run() async {
    await cancelWhenGracefulShutdown { [self] in await run(every: interval) }
  }
}

/// A named source that reads a level's statistics through a closure: for the
/// built-in levels, whose `statistics` have no name of their own.
///
/// ```swift
/// let memory = MemoryCacheLevel<String, Data>()
/// let source = CacheStatisticsSnapshot(name: "memory") { memory.statistics }
/// ```
public struct CacheStatisticsSnapshot: CacheStatisticsSource {
  /// The name the statistics are published under.
  public let name: String
  private let read: @Sendable () -> CacheStatistics

  /// Creates a source named `name` that reads statistics with `read`.
  public init(name: String, _ read: @escaping @Sendable () -> CacheStatistics) {
    self.name = name
    self.read = read
  }

  /// The statistics now.
  public var statistics: CacheStatistics { read() }
}

/// The whole nanoseconds of `duration`, held at `Int64.max`.
func nanoseconds(_ duration: Duration) -> Int64 {
  let (seconds, attoseconds) = duration.components
  let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
  if overflow { return .max }
  return whole + attoseconds / 1_000_000_000
}
#endif
