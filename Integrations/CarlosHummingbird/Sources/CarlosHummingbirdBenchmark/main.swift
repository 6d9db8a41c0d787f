#if Hummingbird
// The server `Scripts/run-throughput.sh` measures with wrk: one Hummingbird
// application on 127.0.0.1 (the port given as the first argument, 0: any free port,
// printed as `listening PORT` on the first line) with two groups of 1,000 routes
// answering 1 KiB:
//   /constant/N  a constant, no middleware;
//   /cached/N    a route that takes 20 ms, `Cache-Control: max-age=3600`, behind
//                ResponseCacheMiddleware on a memory level;
//   /stats       how many times the 20 ms route ran.
// `--probe [ITERATIONS] [ROW]` times the middleware's hit path alone instead (HitProbe.swift).
import Carlos
import CarlosHTTPCaching
import CarlosHummingbird
import Foundation
import Hummingbird
import Synchronization

if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "--probe" {
  let arguments = CommandLine.arguments.dropFirst(2)
  try await runHitProbe(
    iterations: arguments.first.flatMap { Int($0) } ?? 200_000, row: arguments.dropFirst().first)
  exit(0)
}

let body = ByteBuffer(repeating: UInt8(ascii: "x"), count: 1024)
let slowCalls = Atomic(0)
let router = Router()
router.get("/constant/:n") { _, _ in
  Response(
    status: .ok, headers: [.contentType: "application/octet-stream"], body: .init(byteBuffer: body))
}
router.group("/cached")
  .add(middleware: ResponseCacheMiddleware(storage: MemoryCacheLevel(capacity: 64 << 20)))
  .get(":n") { _, _ in
    slowCalls.add(1, ordering: .relaxed)
    try await Task.sleep(for: .milliseconds(20))
    return Response(
      status: .ok,
      headers: [.contentType: "application/octet-stream", .cacheControl: "max-age=3600"],
      body: .init(byteBuffer: body))
  }
router.get("/stats") { _, _ in "\(slowCalls.load(ordering: .relaxed))" }
let port = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 0 : 0
let app = Application(
  router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
  onServerRunning: { channel in
    FileHandle.standardOutput.write(Data("listening \(channel.localAddress?.port ?? 0)\n".utf8))
  })
try await app.runService()
#else
import Foundation

FileHandle.standardError.write(
  Data(
    "CarlosHummingbirdBenchmark is built only with the package trait Hummingbird: swift run --traits Hummingbird CarlosHummingbirdBenchmark\n"
      .utf8))
exit(2)
#endif
