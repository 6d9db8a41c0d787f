import AsyncHTTPClient
import Carlos
import CarlosHTTP
import Foundation

/// Builds what `carlos-caching-proxy` runs: an ``HTTPCache`` with the CDN policy
/// (a shared cache obeying `CDN-Cache-Control`) on the chosen storage, in front
/// of an ``HTTPFetcher`` in proxy mode (redirects passed on) that retries an
/// idempotent request once when its connection fails (``IdempotentRetry``).
public enum CachingProxy {
  /// The HTTP client the proxy needs: it follows no redirect, decompresses
  /// nothing, and closes idle upstream connections after 2 s, before a typical
  /// origin's keep-alive timeout (Node.js: 5 s) could close one under a new request.
  public static func makeClient() -> HTTPClient {
    var configuration = HTTPClient.Configuration()
    configuration.redirectConfiguration = .disallow
    configuration.decompression = .disabled
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
    configuration.connectionPool.idleTimeout = .seconds(2)
    return HTTPClient(
      eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
  }

  /// The cache for `options`, on `client` (which the caller shuts down).
  public static func makeCache(_ options: CachingProxyOptions, client: HTTPClient)
    -> any CacheLevel<HTTPRequestKey, HTTPResponse>
  {
    let origin = IdempotentRetry(
      HTTPFetcher(client: client, timeout: .seconds(30), redirects: .passOn))
    let memory = MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry>(capacity: options.capacity)
    switch options.storage {
    case .memory:
      return memory.caching(origin, policy: .cdn)
    case .disk(let path):
      let disk = DiskCacheLevel<HTTPCacheKey, HTTPCacheEntry>(
        path: path, capacity: UInt64(options.capacity))
      return (memory >>> disk).caching(origin, policy: .cdn)
    }
  }
}
