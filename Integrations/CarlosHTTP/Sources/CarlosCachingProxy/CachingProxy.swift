#if HTTP
import AsyncHTTPClient
import Carlos
import CarlosHTTP
import Foundation

/// Builds what `carlos-caching-proxy` runs: an ``HTTPCache`` with the CDN policy
/// (a shared cache obeying `CDN-Cache-Control`) on the chosen storage, whose
/// memory level counts keys, header fields and a per-entry overhead against its
/// capacity, in front of an ``HTTPFetcher`` in proxy mode (redirects passed on)
/// that retries an idempotent request once when its connection fails
/// (``IdempotentRetry``), fails at once while the origin is known to be down
/// (``OriginBreaker``), and is counted (``ObservedOrigin``).
public enum CachingProxy {
  /// The HTTP client the proxy needs: it follows no redirect, decompresses
  /// nothing, connects within `options`' connect timeout (a refused connection
  /// fails the requests waiting for one at once, rather than after that timeout:
  /// ``IdempotentRetry`` and ``OriginBreaker`` decide what comes next), gives up on a
  /// response that sends nothing for its upstream timeout, keeps up to its
  /// number of upstream connections, and closes idle upstream connections
  /// after 2 s, before a typical origin's keep-alive timeout (Node.js: 5 s)
  /// could close one under a new request.
  public static func makeClient(_ options: CachingProxyOptions? = nil) -> HTTPClient {
    var configuration = HTTPClient.Configuration()
    configuration.redirectConfiguration = .disallow
    configuration.decompression = .disabled
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit =
      options?.upstreamConnections ?? 64
    configuration.connectionPool.idleTimeout = .seconds(2)
    configuration.connectionPool.retryConnectionEstablishment = false
    if let options {
      configuration.timeout.connect = .init(options.upstreamConnectTimeout)
      // A streamed body has no fetcher watching it: the client's read timeout does.
      configuration.timeout.read = .init(options.upstreamTimeout)
    }
    return HTTPClient(
      eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
  }

  /// The memory level of a cache whose capacity is `capacity` bytes: an entry
  /// costs its key and its variants (see `HTTPCacheKey.cost` and `HTTPCacheEntry.cost`).
  public static func makeMemory(capacity: Int) -> MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry> {
    MemoryCacheLevel(capacity: capacity, weigher: { key, entry in key.cost + entry.cost })
  }

  /// The counters of a proxy whose memory level is `memory`: with the bytes it
  /// stores, its entries and its evictions as gauges.
  public static func makeCounters(memory: MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry>)
    -> CachingProxyCounters
  {
    CachingProxyCounters {
      let statistics = memory.statistics
      return [
        ("stored_bytes", memory.totalCost), ("stored_entries", memory.count),
        ("evictions_total", statistics.evictionCount),
      ]
    }
  }

  /// The cache for `options`, on `client` (which the caller shuts down), with
  /// `memory` (by default ``makeMemory(capacity:)`` of the options' capacity) as
  /// its first level, counting origin requests in `counters`.
  public static func makeCache(
    _ options: CachingProxyOptions, client: HTTPClient,
    counters: CachingProxyCounters = CachingProxyCounters(),
    memory: MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry>? = nil
  ) -> any CacheLevel<HTTPRequestKey, HTTPResponse> {
    let fetcher = HTTPFetcher(
      client: client, timeout: options.upstreamTimeout,
      maximumResponseSize: options.maximumObjectSize, redirects: .passOn)
    let origin = ObservedOrigin(OriginBreaker(IdempotentRetry(fetcher)), counters: counters)
    let memory = memory ?? makeMemory(capacity: options.capacity)
    let policy = self.policy(options)
    switch options.storage {
    case .memory:
      return memory.caching(origin, policy: policy)
    case .disk(let path):
      let disk = DiskCacheLevel<HTTPCacheKey, HTTPCacheEntry>(
        path: path, capacity: UInt64(options.capacity))
      return (memory >>> disk).caching(origin, policy: policy)
    }
  }

  /// The caching rules for `options`: the CDN policy, storing responses with
  /// `Set-Cookie` only when `--store-set-cookie` says so.
  public static func policy(_ options: CachingProxyOptions) -> HTTPCachePolicy {
    var policy = HTTPCachePolicy.cdn
    policy.storesResponsesWithSetCookie = options.storesResponsesWithSetCookie
    return policy
  }
}
#endif
