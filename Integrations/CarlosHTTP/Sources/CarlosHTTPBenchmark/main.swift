#if HTTP
// carlos-http-benchmark: HTTPFetcher (AsyncHTTPClient) next to NetworkFetcher
// (URLSession), in one run, against Scripts/bench-server.py in a process of its own:
//   swift run -c release --package-path Integrations/CarlosHTTP carlos-http-benchmark
//   swift run -c release --package-path Integrations/CarlosHTTP carlos-http-benchmark SCENARIO FETCHER
// (SCENARIO: idle, huge, cancel, small or all; FETCHER: HTTPFetcher or NetworkFetcher)
// Figures: idle CPU while a request waits 10 s for its answer, resident memory and
// server-side close time for a 1 GiB body with a 1 MB limit, server-side close time
// after a cancel, and 1,000 small GETs one after another and 64 at once.
import AsyncHTTPClient
import Carlos
import CarlosHTTP
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Prints `line` at once (standard output is not buffered by line when piped).
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The process's CPU time (user + system) in seconds, from /proc/self/stat.
func processCPUSeconds() -> Double {
  guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
    let close = stat.lastIndex(of: ")")
  else { return 0 }
  // Fields after the command name; utime and stime are fields 14 and 15 of the line.
  let fields = stat[stat.index(after: close)...].split(separator: " ")
  let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
  return (Double(fields[11]) ?? 0) / ticks + (Double(fields[12]) ?? 0) / ticks
}

/// The process's resident memory in bytes, from /proc/self/statm.
func residentBytes() -> Int {
  guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
    return 0
  }
  let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The server process and what it reports.
final class BenchServer: Sendable {
  let process: Process
  let port: Int
  private let input: Pipe

  init() throws {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Scripts/bench-server.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path]
    let output = Pipe()
    process.standardOutput = output
    // The server exits when this pipe closes, even if the benchmark is killed.
    let input = Pipe()
    process.standardInput = input
    self.input = input
    try process.run()
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let byte = output.fileHandleForReading.readData(ofLength: 1)
      if byte.isEmpty { break }
      line.append(byte)
    }
    guard
      let port = Int(
        String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    else { throw BenchError.serverDidNotStart }
    self.process = process
    self.port = port
  }

  func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

  /// The times (Unix seconds) at which the server saw a client close a connection to `path`.
  func closes(_ path: String) throws -> [Double] {
    let data = try Data(contentsOf: url("/stats"))
    struct Stats: Decodable {
      struct Close: Decodable {
        let path: String
        let at: Double
      }
      let closes: [Close]
    }
    return try JSONDecoder().decode(Stats.self, from: data).closes.filter { $0.path == path }.map(
      \.at)
  }

  /// Waits up to `seconds` for a new close of `path` beyond `count`; its time, or nil.
  func waitForClose(_ path: String, after count: Int, seconds: Double) async throws -> Double? {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
      let all = try closes(path)
      if all.count > count { return all[count] }
      try await Task.sleep(for: .milliseconds(20))
    }
    return nil
  }

  func stop() {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }
}

enum BenchError: Error { case serverDidNotStart }

/// A fetcher from URL to Data, either kind.
typealias Fetch = @Sendable (URL) -> Future<Data>

func format(_ value: Double, _ digits: Int = 1) -> String {
  String(format: "%.\(digits)f", value)
}

/// `seconds` in whole milliseconds; a close the server saw before the client's own
/// clock reading (the two processes read the same wall clock) shows as "0 ms or less".
func milliseconds(_ seconds: Double) -> String {
  seconds < 0.0005 ? "0 ms or less" : "\(format(seconds * 1000, 0)) ms"
}

func idleCPU(_ name: String, _ fetch: Fetch, _ server: BenchServer) async throws {
  let future = fetch(server.url("/slow?s=10"))
  try await Task.sleep(for: .seconds(1))
  let cpuStart = processCPUSeconds()
  let start = Date()
  try await Task.sleep(for: .seconds(8))
  let cpu = processCPUSeconds() - cpuStart
  let wall = Date().timeIntervalSince(start)
  let data = try await future.value
  say(
    "\(name): idle CPU while waiting: \(format(cpu / wall * 100, 2)) % of a core "
      + "(\(format(cpu * 1000, 0)) ms over \(format(wall, 2)) s); answer \(data.count) bytes")
}

func hugeBody(_ name: String, _ fetch: Fetch, _ server: BenchServer) async throws {
  let before = residentBytes()
  let closesBefore = try server.closes("/huge").count
  let started = Date()
  var outcome = "succeeded (unexpected)"
  do {
    _ = try await fetch(server.url("/huge")).value
  } catch {
    outcome = "failed: \(error)"
  }
  let failedAt = Date()
  let grown = residentBytes() - before
  let closed = try await server.waitForClose("/huge", after: closesBefore, seconds: 5)
  let closeText =
    closed.map {
      "\(milliseconds($0 - failedAt.timeIntervalSince1970)) after the error reached the caller"
    }
    ?? "not within 5 s"
  say(
    "\(name): 1 GiB body, 1 MB limit: \(outcome) after \(format(failedAt.timeIntervalSince(started) * 1000, 0)) ms; "
      + "resident growth \(format(Double(grown) / 1_048_576, 1)) MiB; server saw the close \(closeText)"
  )
}

func cancel(_ name: String, _ fetch: Fetch, _ server: BenchServer) async throws {
  let closesBefore = try server.closes("/hang").count
  let future = fetch(server.url("/hang"))
  try await Task.sleep(for: .seconds(1))
  let cancelledAt = Date()
  future.cancel()
  let closed = try await server.waitForClose("/hang", after: closesBefore, seconds: 5)
  let text =
    closed.map { milliseconds($0 - cancelledAt.timeIntervalSince1970) }
    ?? "not within 5 s"
  say("\(name): cancel: the server saw the connection closed after \(text)")
}

func smallGETs(_ name: String, _ fetch: @escaping Fetch, _ server: BenchServer) async throws {
  let url = server.url("/small")
  for _ in 0..<20 { _ = try await fetch(url).value }  // warm-up: connections
  var cpu = processCPUSeconds()
  var start = Date()
  for _ in 0..<1_000 { _ = try await fetch(url).value }
  var wall = Date().timeIntervalSince(start)
  cpu = processCPUSeconds() - cpu
  say(
    "\(name): 1,000 sequential GETs: \(format(1_000 / wall, 0)) requests/s, "
      + "\(format(cpu / 1_000 * 1_000_000, 0)) µs CPU per request")
  cpu = processCPUSeconds()
  start = Date()
  try await withThrowingTaskGroup(of: Void.self) { group in
    for worker in 0..<64 {
      group.addTask {
        var index = worker
        while index < 1_000 {
          _ = try await fetch(url).value
          index += 64
        }
      }
    }
    try await group.waitForAll()
  }
  wall = Date().timeIntervalSince(start)
  cpu = processCPUSeconds() - cpu
  say(
    "\(name): 1,000 GETs, 64 at once: \(format(1_000 / wall, 0)) requests/s, "
      + "\(format(cpu / 1_000 * 1_000_000, 0)) µs CPU per request")
}

func runBenchmarks() async throws {
  let server = try BenchServer()
  var configuration = HTTPClient.Configuration()
  configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
  let client = HTTPClient(
    eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
  let limit = 1_000_000
  let http = HTTPFetcher(client: client, timeout: .seconds(30), maximumResponseSize: limit).bodies()
  let sessionConfiguration = URLSessionConfiguration.ephemeral
  sessionConfiguration.httpMaximumConnectionsPerHost = 64
  let network = NetworkFetcher(
    timeout: 30, maximumResponseSize: limit, configuration: sessionConfiguration)
  let fetchers: [(String, Fetch)] = [
    ("HTTPFetcher", { http.get($0) }),
    ("NetworkFetcher", { network.get($0) }),
  ]
  let arguments = CommandLine.arguments.dropFirst()
  let only = arguments.first.flatMap { $0 == "all" ? nil : $0 }
  let fetcherFilter = arguments.dropFirst().first
  say(
    "server pid \(server.process.processIdentifier), client pid \(ProcessInfo.processInfo.processIdentifier), \(ProcessInfo.processInfo.activeProcessorCount) cores"
  )
  for (name, run) in [
    ("idle", idleCPU), ("huge", hugeBody), ("cancel", cancel), ("small", smallGETs),
  ] as [(String, (String, @escaping Fetch, BenchServer) async throws -> Void)]
  where only == nil || only == name {
    for (fetcherName, fetch) in fetchers where fetcherFilter == nil || fetcherFilter == fetcherName
    {
      try await run(fetcherName, fetch, server)
    }
  }
  try await client.shutdown()
  server.stop()
}

try await runBenchmarks()
#else
import Foundation

FileHandle.standardError.write(
  Data(
    "carlos-http-benchmark is built only with the package trait HTTP: swift run --traits HTTP carlos-http-benchmark\n"
      .utf8))
exit(2)
#endif
