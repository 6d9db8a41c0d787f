import CarlosCachingProxy
import Foundation

/// `carlos-caching-proxy --upstream URL --port N [--host ADDRESS] [--storage memory|disk:PATH] [--capacity BYTES]`:
/// prints `listening PORT` as the first line of standard output, then serves
/// until SIGTERM or SIGINT end the process (their default action: nothing
/// needs flushing, and a disk level's writes are atomic).
@main
struct CarlosCachingProxyCommand {
  /// Runs the proxy; exits with 2 on a wrong command line, 1 when it cannot listen.
  static func main() async {
    let options: CachingProxyOptions
    do {
      options = try CachingProxyOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    } catch {
      FileHandle.standardError.write(Data("\(error)\n".utf8))
      exit(2)
    }
    let client = CachingProxy.makeClient()
    let server: CachingProxyServer
    do {
      server = try await CachingProxyServer(
        cache: CachingProxy.makeCache(options, client: client), upstream: options.upstream,
        host: options.host, port: options.port)
    } catch {
      FileHandle.standardError.write(
        Data("cannot listen on \(options.host):\(options.port): \(error)\n".utf8))
      try? await client.shutdown()
      exit(1)
    }
    FileHandle.standardOutput.write(Data("listening \(server.port)\n".utf8))

    await server.run()
    try? await client.shutdown()
  }
}
