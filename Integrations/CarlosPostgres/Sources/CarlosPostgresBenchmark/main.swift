#if Postgres
// Measures the PostgreSQL level against raw postgres-nio statements in one run,
// on the server named by DATABASE_URL, and prints ratios:
//
//   Integrations/Scripts/with-postgres.sh swift run -c release carlos-postgres-benchmark
//
// - get hit: PostgresCacheLevel.get vs a raw prepared SELECT of the same row
//   (the statement the level runs), one at a time;
// - set: PostgresCacheLevel.set (with and without its invalidation notice) vs a raw
//   prepared upsert of the same row, one at a time;
// - memory hits of a CoherentCache, plain and through a PostgresSingleFlight (with and
//   without refresh ahead), vs the memory level alone;
// - 1,000 concurrent gets through the level, for several pool sizes;
// - invalidation propagation to a second process (the example executable):
//   p50 and p99 from the start of a set to the moment the other process receives
//   the notice.
// Rounds alternate between the contenders; each figure is the median of the rounds.
import Carlos
import CarlosPostgres
import Foundation
import PostgresNIO
import Synchronization

struct RawSelect: PostgresPreparedStatement {
  typealias Row = (Data, Int64, Int64?)
  static let sql = """
    SELECT value, stored_at, expires_at FROM carlos_cache
    WHERE namespace = $1 AND key_hash = sha256($2) AND key = $2
      AND (expires_at IS NULL OR expires_at > $3)
    """
  var namespace: String
  var key: Data
  var now: Int64
  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings()
    bindings.append(namespace)
    try bindings.append(key)
    bindings.append(now)
    return bindings
  }
  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

struct RawUpsert: PostgresPreparedStatement {
  typealias Row = Int64
  static let sql = """
    INSERT INTO carlos_cache (namespace, key_hash, key, value, size, stored_at, expires_at)
    VALUES ($1, sha256($2), $2, $3, $4, $5, $6)
    ON CONFLICT (namespace, key_hash) DO UPDATE SET key = EXCLUDED.key, value = EXCLUDED.value,
      size = EXCLUDED.size, stored_at = EXCLUDED.stored_at, expires_at = EXCLUDED.expires_at
    RETURNING size
    """
  var namespace: String
  var key: Data
  var value: Data
  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings()
    bindings.append(namespace)
    try bindings.append(key)
    try bindings.append(value)
    bindings.append(Int64(key.count + value.count))
    bindings.append(Int64(Date().timeIntervalSince1970 * 1_000_000))
    bindings.append(Int64?.none)
    return bindings
  }
  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Int64.self) }
}

/// The raw upsert plus its notice in one statement: what the level's default set runs.
struct RawUpsertNotifying: PostgresPreparedStatement {
  typealias Row = Int64
  static let sql = """
    WITH written AS (
      INSERT INTO carlos_cache (namespace, key_hash, key, value, size, stored_at, expires_at)
      VALUES ($1, sha256($2), $2, $3, $4, $5, $6)
      ON CONFLICT (namespace, key_hash) DO UPDATE SET key = EXCLUDED.key, value = EXCLUDED.value,
        size = EXCLUDED.size, stored_at = EXCLUDED.stored_at, expires_at = EXCLUDED.expires_at
      RETURNING size)
    SELECT (SELECT size FROM written), pg_notify($7, $8)
    """
  var upsert: RawUpsert
  func makeBindings() throws -> PostgresBindings {
    var bindings = try upsert.makeBindings()
    bindings.append(InvalidationNotice.channel)
    bindings.append("v1\tbenchmark")
    return bindings
  }
  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Int64.self) }
}

func drain<S: AsyncSequence>(_ rows: S) async throws -> Int {
  var count = 0
  for try await _ in rows { count += 1 }
  return count
}

/// Nanoseconds per operation of `count` sequential runs of `operation`.
func perOperation(_ count: Int, _ operation: () async throws -> Void) async throws -> Double {
  let start = ContinuousClock.now
  for _ in 0..<count { try await operation() }
  let elapsed = start.duration(to: .now)
  let total =
    Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
  return total / Double(count)
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted[sorted.count / 2]
}

func percentile(_ values: [Double], _ p: Double) -> Double {
  let sorted = values.sorted()
  let index = min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)
  return sorted[max(0, index)]
}

func withClient<T: Sendable>(
  _ url: String, connections: Int, _ body: @Sendable (PostgresClient) async throws -> T
) async throws -> T {
  let client = PostgresClient(
    configuration: try DatabaseURL.configuration(url, connections: connections))
  return try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { await client.run() }
    defer { group.cancelAll() }
    return try await body(client)
  }
}

func format(_ nanoseconds: Double) -> String {
  String(format: "%.1f µs", nanoseconds / 1000)
}

let environment = ProcessInfo.processInfo.environment
guard let url = environment["DATABASE_URL"] else {
  print("DATABASE_URL is not set: run through Integrations/Scripts/with-postgres.sh")
  exit(2)
}
let rounds = Int(environment["CARLOS_BENCH_ROUNDS"] ?? "") ?? 7
let perRound = Int(environment["CARLOS_BENCH_OPS"] ?? "") ?? 2000
let namespace = "bench-\(UUID().uuidString.prefix(8))"
print(
  "PostgreSQL level benchmark: \(rounds) rounds of \(perRound) operations, namespace \(namespace)")

try await withClient(url, connections: 4) { client in
  let level = try PostgresCacheLevel<String>(
    client: client, options: PostgresCacheOptions(namespace: namespace))
  let quiet = try PostgresCacheLevel<String>(
    client: client,
    options: PostgresCacheOptions(namespace: namespace, publishesInvalidations: false))
  let value = Data(repeating: 0x61, count: 100)
  try await level.set(value, forKey: "hot").value
  let key = Data("hot".utf8)

  // Warm up both paths (statement preparation on every connection).
  for _ in 0..<500 {
    _ = try await level.get("hot").value
    _ = try await drain(client.execute(RawSelect(namespace: namespace, key: key, now: 0)))
  }
  var levelGets: [Double] = []
  var rawGets: [Double] = []
  var levelSets: [Double] = []
  var quietSets: [Double] = []
  var rawSets: [Double] = []
  var rawNotifyingSets: [Double] = []
  for _ in 0..<rounds {
    rawGets.append(
      try await perOperation(perRound) {
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        _ = try await drain(client.execute(RawSelect(namespace: namespace, key: key, now: now)))
      })
    levelGets.append(try await perOperation(perRound) { _ = try await level.get("hot").value })
    rawSets.append(
      try await perOperation(perRound / 2) {
        _ = try await drain(client.execute(RawUpsert(namespace: namespace, key: key, value: value)))
      })
    rawNotifyingSets.append(
      try await perOperation(perRound / 2) {
        let upsert = RawUpsert(namespace: namespace, key: key, value: value)
        _ = try await drain(client.execute(RawUpsertNotifying(upsert: upsert)))
      })
    quietSets.append(
      try await perOperation(perRound / 2) { try await quiet.set(value, forKey: "hot").value })
    levelSets.append(
      try await perOperation(perRound / 2) { try await level.set(value, forKey: "hot").value })
  }
  let (rawGet, levelGet) = (median(rawGets), median(levelGets))
  let (rawSet, quietSet, levelSet) = (median(rawSets), median(quietSets), median(levelSets))
  let rawNotifyingSet = median(rawNotifyingSets)
  print("")
  print("| operation | time per operation | ratio to raw |")
  print("|---|---|---|")
  print("| raw prepared SELECT | \(format(rawGet)) | 1.00 |")
  print("| level get (hit) | \(format(levelGet)) | \(String(format: "%.2f", levelGet / rawGet)) |")
  print("| raw prepared upsert | \(format(rawSet)) | 1.00 |")
  print(
    "| level set, no notice | \(format(quietSet)) | \(String(format: "%.2f", quietSet / rawSet)) |")
  print(
    "| level set + NOTIFY (default) | \(format(levelSet)) | \(String(format: "%.2f", levelSet / rawSet)) |"
  )
  print(
    "| raw prepared upsert + pg_notify | \(format(rawNotifyingSet)) | "
      + "\(String(format: "%.2f", rawNotifyingSet / rawSet)) |")
  print(
    "| level set + NOTIFY vs raw upsert + pg_notify | | "
      + "\(String(format: "%.2f", levelSet / rawNotifyingSet)) |")
}

// Memory hits of a coherent cache: plain, through a single flight, and through one
// that refreshes ahead (the value far from its expiry), against the memory level alone.
try await withClient(url, connections: 4) { client in
  let listener = PostgresInvalidationListener(client: client)
  let listening = Task { await listener.run() }
  defer { listening.cancel() }
  await listener.waitUntilListening()
  let level = try PostgresCacheLevel<String>(
    client: client,
    options: PostgresCacheOptions(
      namespace: namespace + "-hits", defaultExpiry: .after(.seconds(300))))
  let memory = MemoryCacheLevel<String, Data>(capacity: 1000)
  let coherent = CoherentCache(upper: memory, lower: level, listener: listener)
  let flight = PostgresSingleFlight(level: level, listener: listener)
  let refreshing = PostgresSingleFlight(
    level: level, listener: listener, refreshAhead: .milliseconds(50))
  let load: @Sendable (String) async throws -> Data = { _ in Data(repeating: 0x61, count: 100) }
  _ = try await coherent.get("hot", through: flight, orLoad: load)
  _ = try await memory.get("hot").value  // copied up
  let hits = perRound * 50
  var rows: [(String, [Double])] = [
    ("memory level get", []), ("coherent get", []), ("coherent get through a flight", []),
    ("coherent get through a flight refreshing ahead", []),
  ]
  for _ in 0..<rounds {
    rows[0].1.append(try await perOperation(hits) { _ = try await memory.get("hot").value })
    rows[1].1.append(try await perOperation(hits) { _ = try await coherent.get("hot").value })
    rows[2].1.append(
      try await perOperation(hits) {
        _ = try await coherent.get("hot", through: flight, orLoad: load)
      })
    rows[3].1.append(
      try await perOperation(hits) {
        _ = try await coherent.get("hot", through: refreshing, orLoad: load)
      })
  }
  let baseline = median(rows[0].1)
  print("")
  print("| memory hit (\(hits) per round) | time per hit | ratio to the memory level |")
  print("|---|---|---|")
  for (name, times) in rows {
    print(
      "| \(name) | \(String(format: "%.0f ns", median(times))) | "
        + "\(String(format: "%.2f", median(times) / baseline)) |")
  }
}

print("")
print("| pool size | 1,000 concurrent gets | gets per second | errors |")
print("|---|---|---|---|")
for connections in [1, 2, 4, 8, 16, 32] {
  try await withClient(url, connections: connections) { client in
    let level = try PostgresCacheLevel<String>(
      client: client,
      options: PostgresCacheOptions(namespace: namespace, operationTimeout: .seconds(30)))
    for index in 0..<100 { try await level.set(Data(count: 100), forKey: "k\(index)").value }
    var times: [Double] = []
    var errors = 0
    for _ in 0..<5 {
      let start = ContinuousClock.now
      let failures = await withTaskGroup(of: Int.self) { group in
        for index in 0..<1000 {
          group.addTask { (try? await level.get("k\(index % 100)").value) == nil ? 1 : 0 }
        }
        return await group.reduce(0, +)
      }
      errors += failures
      let elapsed = start.duration(to: .now)
      times.append(
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    let time = median(times)
    print(
      "| \(connections) | \(String(format: "%.1f ms", time * 1000)) | "
        + "\(String(format: "%.0f", 1000 / time)) | \(errors) |")
  }
}

/// Measures invalidation propagation to a second process (the example executable).
func measurePropagation(url: String, namespace: String, environment: [String: String]) async throws
{
  let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  let example = binaries.appendingPathComponent("carlos-postgres-example")
  guard FileManager.default.isExecutableFile(atPath: example.path) else {
    print("\n(carlos-postgres-example not built next to the benchmark: no propagation figures)")
    return
  }
  let process = Process()
  process.executableURL = example
  var childEnvironment = environment
  childEnvironment["CARLOS_EXAMPLE_NAMESPACE"] = namespace
  process.environment = childEnvironment
  let input = Pipe()
  let output = Pipe()
  process.standardInput = input
  process.standardOutput = output
  try process.run()
  let reader = output.fileHandleForReading
  let lines = AsyncStream<String> { continuation in
    let buffer = Mutex(Data())
    reader.readabilityHandler = { handle in
      let chunk = handle.availableData
      if chunk.isEmpty {
        handle.readabilityHandler = nil
        continuation.finish()
        return
      }
      let complete = buffer.withLock { buffer -> [String] in
        buffer.append(chunk)
        var found: [String] = []
        while let end = buffer.firstIndex(of: 0x0A) {
          found.append(String(decoding: buffer[buffer.startIndex..<end], as: UTF8.self))
          buffer = Data(buffer[buffer.index(after: end)...])
        }
        return found
      }
      for line in complete { continuation.yield(line) }
    }
  }
  var iterator = lines.makeAsyncIterator()
  while let line = await iterator.next(), !line.hasPrefix("ready") {}
  let client = PostgresClient(configuration: try DatabaseURL.configuration(url))
  let runner = Task { await client.run() }
  defer { runner.cancel() }
  do {
    let level = try PostgresCacheLevel<String>(
      client: client, options: PostgresCacheOptions(namespace: namespace))
    var latencies: [Double] = []
    for index in 0..<500 {
      let key = "inv\(index)"
      let start = Date().timeIntervalSince1970 * 1e9
      try await level.set(Data("v".utf8), forKey: key).value
      while let line = await iterator.next() {
        let parts = line.split(separator: " ")
        if parts.count == 3, parts[0] == "invalidated", parts[1] == Substring(key),
          let at = Double(parts[2])
        {
          if index >= 20 { latencies.append(at - start) }
          break
        }
      }
    }
    print("")
    print("| invalidation between two processes (\(latencies.count) sets) | p50 | p99 | max |")
    print("|---|---|---|---|")
    print(
      "| set start → other process drops the key | \(format(percentile(latencies, 0.5))) | "
        + "\(format(percentile(latencies, 0.99))) | \(format(latencies.max() ?? 0)) |")
  }
  input.fileHandleForWriting.write(Data("quit\n".utf8))
  process.waitUntilExit()
}

try await measurePropagation(url: url, namespace: namespace, environment: environment)
#else
import Foundation

FileHandle.standardError.write(
  Data(
    "carlos-postgres-benchmark is built only with the package trait Postgres: swift run --traits Postgres carlos-postgres-benchmark\n"
      .utf8))
exit(2)
#endif
