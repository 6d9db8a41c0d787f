import Dispatch

/// A level that records the statistics of the level it wraps, under a name.
/// Create one with ``CacheLevel/recordingStatistics(_:)``.
///
/// Every get counts once: a hit when it succeeds, a miss when it fails or is
/// cancelled, so hits + misses is the number of gets. A get that did not answer at
/// once (a disk write in flight, a network request) is also a load: its outcome
/// and duration are the load figures. The wrapper names its level in
/// ``getWithSource(_:)``. Every other operation passes through unchanged.
public final class StatisticsCache<Inner: CacheLevel>: CacheLevel, CacheStatisticsSource {
  public typealias KeyType = Inner.KeyType
  public typealias OutputType = Inner.OutputType

  /// The wrapped level.
  public let inner: Inner
  /// The name the statistics are reported under.
  public let name: String

  /// The name the statistics are reported under (see ``CacheLevel/levelName``).
  public var levelName: String { name }
  @usableFromInline let recorder = StatisticsRecorder()

  /// Creates a level that records the statistics of `inner` under `name`.
  public init(_ inner: Inner, name: String) {
    self.inner = inner
    self.name = name
  }

  /// A snapshot of what the wrapped level did through this wrapper.
  public var statistics: CacheStatistics {
    recorder.snapshot
  }

  /// Gets the value from the wrapped level, counting the outcome.
  @inlinable
  public func get(_ key: KeyType) -> Future<OutputType> {
    record(inner.get(key))
  }

  /// Gets the value with its source, this level's name (or a name given further in).
  public func getWithSource(_ key: KeyType) -> Future<CacheAnswer<OutputType>> {
    record(inner.getWithSource(key)).map { [name] answer in
      guard !answer.isNamed else { return answer }
      var named = answer
      named.source = name
      named.isNamed = true
      return named
    }
  }

  /// Counts the outcome of `request`, and its duration when it did not complete at
  /// once; the future returned completes only once the outcome is counted, so whoever
  /// waits for it sees it in ``statistics``.
  @inlinable
  func record<T: Sendable>(_ request: Future<T>) -> Future<T> {
    if let result = request.result {
      if case .success = result { recorder.recordHit() } else { recorder.recordMiss() }
      return request
    }
    let start = DispatchTime.now().uptimeNanoseconds
    let recorded = Promise<T>()
    recorded.onCancel { request.cancel() }
    request.onCompletion { [recorder] result in
      let elapsed = Int(clamping: DispatchTime.now().uptimeNanoseconds &- start)
      let succeeded: Bool
      if case .success = result { succeeded = true } else { succeeded = false }
      if succeeded { recorder.recordHit() } else { recorder.recordMiss() }
      recorder.recordLoad(succeeded: succeeded, nanoseconds: elapsed)
      recorded.complete(result)
    }
    return recorded.future
  }

  /// Stores `value` in the wrapped level.
  @discardableResult
  public func set(_ value: OutputType, forKey key: KeyType) -> Future<Void> {
    inner.set(value, forKey: key)
  }

  /// Stores `value` with `expiry` in the wrapped level.
  @discardableResult
  public func set(_ value: OutputType, forKey key: KeyType, expiry: Expiry) -> Future<Void> {
    inner.set(value, forKey: key, expiry: expiry)
  }

  /// Removes `key` from the wrapped level.
  @discardableResult
  public func remove(_ key: KeyType) -> Future<Void> {
    inner.remove(key)
  }

  /// Removes the wrapped level's expired values.
  @discardableResult
  public func removeExpired() -> Future<Void> {
    inner.removeExpired()
  }

  /// Clears the wrapped level.
  public func clear() {
    inner.clear()
  }

  /// Forwards the memory warning to the wrapped level.
  public func onMemoryWarning() {
    inner.onMemoryWarning()
  }
}

extension CacheLevel {
  /// Returns this level recording its hits, misses and load times under `name`
  /// (see ``StatisticsCache``), so each level of a pipeline reports its own:
  ///
  /// ```swift
  /// let memory = MemoryCacheLevel<URL, Data>().recordingStatistics("memory")
  /// let disk = DiskCacheLevel<URL, Data>().recordingStatistics("disk")
  /// let cache = memory >>> disk >>> NetworkFetcher().recordingStatistics("network")
  /// print(disk.statistics.hitRate, disk.statistics.averageLoadPenalty)
  /// ```
  public func recordingStatistics(_ name: String) -> StatisticsCache<Self> {
    StatisticsCache(self, name: name)
  }

  /// Returns a level that records the statistics of this one under its
  /// ``CacheLevel/levelName`` (the name given with ``CacheLevel/named(_:)``, if any).
  public func recordingStatistics() -> StatisticsCache<Self> {
    StatisticsCache(self, name: levelName)
  }
}
