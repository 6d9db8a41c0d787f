#if HTTP
import CarlosCachingProxy
import Dispatch
import Foundation

/// `carlos-caching-proxy --upstream URL --port N [options]` (`--help` lists
/// them): prints `listening PORT` as the first line of standard output, then
/// serves until SIGTERM or SIGINT, which stop accepting, let the responses in
/// flight finish (up to the drain timeout) and exit with 0.
@main
struct CarlosCachingProxyCommand {
  /// Runs the proxy; exits with 2 on a wrong command line, 1 when it cannot listen.
  static func main() async {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.contains("--help") || arguments.contains("-h") {
      print(CachingProxyOptions.help)
      exit(0)
    }
    let options: CachingProxyOptions
    do {
      options = try CachingProxyOptions(arguments: arguments)
    } catch {
      FileHandle.standardError.write(Data("\(error)\n".utf8))
      exit(2)
    }
    let client = CachingProxy.makeClient(options)
    let memory = CachingProxy.makeMemory(capacity: options.capacity)
    let counters = CachingProxy.makeCounters(memory: memory)
    let log = AccessLog()
    let write: @Sendable (String) -> Void = { log.write($0) }
    let accessLog = options.accessLog ? write : nil
    let cache = CachingProxy.makeCache(options, client: client, counters: counters, memory: memory)
    let server: CachingProxyServer
    let metrics: MetricsEndpoint?
    do {
      server = try await CachingProxyServer(
        cache: cache, policy: CachingProxy.policy(options), upstream: options.upstream,
        host: options.host, port: options.port,
        limits: options.limits, counters: counters, accessLog: accessLog)
      if let port = options.metricsPort {
        metrics = try await MetricsEndpoint(counters: counters, port: port)
      } else {
        metrics = nil
      }
    } catch {
      FileHandle.standardError.write(
        Data("cannot listen on \(options.host):\(options.port): \(error)\n".utf8))
      try? await client.shutdown()
      exit(1)
    }
    var started = "listening \(server.port)\n"
    if let metrics { started += "metrics \(metrics.port)\n" }
    FileHandle.standardOutput.write(Data(started.utf8))

    let signals = [SIGTERM, SIGINT].map { drain(server, on: $0) }
    if let metrics { Task.detached { await metrics.run() } }
    await server.run()
    withExtendedLifetime(signals) {}
    try? await client.shutdown()
    exit(0)
  }
}

/// Drains `server` when the process receives `number`; the source must be kept.
private func drain(_ server: CachingProxyServer, on number: Int32) -> any DispatchSourceSignal {
  signal(number, SIG_IGN)
  let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
  source.setEventHandler { Task { await server.drain() } }
  source.resume()
  return source
}

/// Writes access-log lines to standard output, in order, without blocking the
/// request that logs.
private final class AccessLog: Sendable {
  private let queue = DispatchQueue(label: "carlos-caching-proxy.access-log")

  func write(_ line: String) {
    queue.async { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
  }
}
#else
import Foundation

/// Without the package trait HTTP: says so and exits with 2.
@main
enum CarlosCachingProxyCommand {
  static func main() {
    FileHandle.standardError.write(
      Data(
        "carlos-caching-proxy is built only with the package trait HTTP: swift run --traits HTTP carlos-caching-proxy\n"
          .utf8))
    exit(2)
  }
}
#endif
