#if HTTP
import CarlosCachingProxy
import Foundation

/// Runs `work` on a thread of its own: for blocking socket calls, which must
/// not hold one of the few threads the proxy's tasks run on.
func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try work() }) }.start()
  }
}

/// Runs `body` with a proxy (in this process, built as the command builds it)
/// in front of the origin at `upstream`; `stopOrigin` runs once the proxy has
/// stopped, whatever happened.
func withProxy(
  upstream: URL, limits: CachingProxyLimits = CachingProxyLimits(), arguments: [String] = [],
  log: (@Sendable (String) -> Void)? = nil, stopOrigin: () async -> Void,
  run body: (CachingProxyServer) async throws -> Void
) async throws {
  let options = try CachingProxyOptions(
    arguments: ["--upstream", upstream.absoluteString, "--port", "0"] + arguments)
  let client = CachingProxy.makeClient(options)
  let memory = CachingProxy.makeMemory(capacity: options.capacity)
  let counters = CachingProxy.makeCounters(memory: memory)
  let cache = CachingProxy.makeCache(options, client: client, counters: counters, memory: memory)
  do {
    let proxy = try await CachingProxyServer(
      cache: cache, policy: CachingProxy.policy(options), upstream: options.upstream,
      limits: limits, counters: counters, accessLog: log)
    proxy.start()
    do {
      try await body(proxy)
    } catch {
      await proxy.stop()
      throw error
    }
    await proxy.stop()
  } catch {
    try? await client.shutdown()
    await stopOrigin()
    throw error
  }
  try await client.shutdown()
  await stopOrigin()
}
#endif
