#if HTTPCaching
import Carlos

extension CacheLevel where KeyType == HTTPRequestKey, OutputType == HTTPCacheRecord {
  /// Unavailable: an ``HTTPCache`` stores under ``HTTPCacheKey`` (method and
  /// normalised URI) an ``HTTPCacheEntry`` (the response's variants), no longer a
  /// record under the whole request.
  @available(
    *, unavailable,
    message:
      "HTTPCache storage is now keyed by HTTPCacheKey and holds HTTPCacheEntry: declare it as MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry> (see MIGRATION.md)"
  )
  public func caching<Origin: CacheLevel>(
    _ origin: Origin, policy: HTTPCachePolicy = .shared, clock: any CacheClock = SystemClock()
  ) -> Origin
  where Origin.KeyType == HTTPRequestKey, Origin.OutputType == HTTPResponse {
    origin
  }
}
#endif
