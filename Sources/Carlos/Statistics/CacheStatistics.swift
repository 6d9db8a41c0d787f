/// What a level has done since it was created: hits, misses, loads and evictions.
///
/// Take a snapshot with `statistics` (on the built-in levels and on
/// ``StatisticsCache``) and subtract an earlier one to see what happened in between:
///
/// ```swift
/// let before = memory.statistics
/// runTheWorkload()
/// let delta = memory.statistics - before
/// print("hit rate \(delta.hitRate), \(delta.evictionCount) evictions")
/// ```
public struct CacheStatistics: Sendable, Hashable, CustomStringConvertible {
  /// Gets answered with a value.
  public var hitCount: Int
  /// Gets answered without a value.
  public var missCount: Int
  /// Loads that produced a value. A load is a get of this level whose answer did not
  /// come at once (a disk read in flight, a network request, an async function); a
  /// memory level answers at once and records none. To count an origin's fetches in
  /// `memory >>> origin`, record the origin or the whole composition.
  public var loadSuccessCount: Int
  /// Loads that failed.
  public var loadFailureCount: Int
  /// The time spent in loads, successful or not.
  public var totalLoadTime: Duration
  /// Values removed to make room (not removals asked for, nor expiries).
  public var evictionCount: Int
  /// The total cost (bytes, for the disk level) of the evicted values.
  public var evictedCost: Int

  /// Creates statistics with the given counts (all zero by default).
  public init(
    hitCount: Int = 0, missCount: Int = 0, loadSuccessCount: Int = 0, loadFailureCount: Int = 0,
    totalLoadTime: Duration = .zero, evictionCount: Int = 0, evictedCost: Int = 0
  ) {
    self.hitCount = hitCount
    self.missCount = missCount
    self.loadSuccessCount = loadSuccessCount
    self.loadFailureCount = loadFailureCount
    self.totalLoadTime = totalLoadTime
    self.evictionCount = evictionCount
    self.evictedCost = evictedCost
  }

  /// Gets answered, with or without a value.
  public var requestCount: Int { hitCount + missCount }
  /// Loads, successful or not.
  public var loadCount: Int { loadSuccessCount + loadFailureCount }
  /// The share of gets that were hits: 1 when there was no get.
  public var hitRate: Double { requestCount == 0 ? 1 : Double(hitCount) / Double(requestCount) }
  /// The share of gets that were misses: 0 when there was no get.
  public var missRate: Double { requestCount == 0 ? 0 : Double(missCount) / Double(requestCount) }
  /// The average time of a load: zero when there was none.
  public var averageLoadPenalty: Duration {
    loadCount == 0 ? .zero : totalLoadTime / loadCount
  }

  /// What happened between `earlier` and `later` (counts never go below zero).
  public static func - (later: CacheStatistics, earlier: CacheStatistics) -> CacheStatistics {
    CacheStatistics(
      hitCount: max(0, later.hitCount - earlier.hitCount),
      missCount: max(0, later.missCount - earlier.missCount),
      loadSuccessCount: max(0, later.loadSuccessCount - earlier.loadSuccessCount),
      loadFailureCount: max(0, later.loadFailureCount - earlier.loadFailureCount),
      totalLoadTime: max(.zero, later.totalLoadTime - earlier.totalLoadTime),
      evictionCount: max(0, later.evictionCount - earlier.evictionCount),
      evictedCost: max(0, later.evictedCost - earlier.evictedCost)
    )
  }

  /// The sum of two sets of statistics (of two levels, say).
  public static func + (lhs: CacheStatistics, rhs: CacheStatistics) -> CacheStatistics {
    CacheStatistics(
      hitCount: lhs.hitCount + rhs.hitCount,
      missCount: lhs.missCount + rhs.missCount,
      loadSuccessCount: lhs.loadSuccessCount + rhs.loadSuccessCount,
      loadFailureCount: lhs.loadFailureCount + rhs.loadFailureCount,
      totalLoadTime: lhs.totalLoadTime + rhs.totalLoadTime,
      evictionCount: lhs.evictionCount + rhs.evictionCount,
      evictedCost: lhs.evictedCost + rhs.evictedCost
    )
  }

  /// A one-line summary.
  public var description: String {
    let rate = (hitRate * 1000).rounded() / 10
    return
      "\(hitCount) hits, \(missCount) misses (hit rate \(rate)%), \(loadSuccessCount) loads, "
      + "\(loadFailureCount) failed loads, average load \(averageLoadPenalty), "
      + "\(evictionCount) evictions (cost \(evictedCost))"
  }
}

/// Something that reports statistics under a name: the levels made by
/// ``CacheLevel/recordingStatistics(_:)``, for a metrics system to publish.
public protocol CacheStatisticsSource: Sendable {
  /// The name the statistics are reported under.
  var name: String { get }
  /// A snapshot of the statistics.
  var statistics: CacheStatistics { get }
}
