// What encryption costs a PostgreSQL get, in one run, on the server named by
// DATABASE_URL:
//
//   ../Scripts/with-postgres.sh swift run -c release carlos-encrypted-postgres-benchmark
//
// Rows: a 4 KiB value read from a `PostgresCacheLevel`, plain and through
// `=>> CacheEncryption` (AES-GCM), one get at a time; the same through
// `memory >>> …` when the memory level answers. Rounds alternate between the two;
// each figure is the median of the rounds (CARLOS_BENCH_ROUNDS, 7 by default, of
// CARLOS_BENCH_OPS gets, 2,000 by default).
import Carlos
import CarlosCrypto
import CarlosPostgres
import Crypto
import Foundation
import PostgresNIO

/// Nanoseconds per call of `operation`, over `count` calls one after another.
func perOperation(_ count: Int, _ operation: () async throws -> Void) async throws -> Double {
  let start = ContinuousClock.now
  for _ in 0..<count { try await operation() }
  let elapsed = start.duration(to: .now)
  return (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9)
    / Double(count)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

nonisolated func benchmark() async throws {
  let environment = ProcessInfo.processInfo.environment
  guard let url = environment["DATABASE_URL"] else {
    print("DATABASE_URL is not set: run through Integrations/Scripts/with-postgres.sh")
    exit(2)
  }
  let rounds = Int(environment["CARLOS_BENCH_ROUNDS"] ?? "") ?? 7
  let count = Int(environment["CARLOS_BENCH_OPS"] ?? "") ?? 2000
  let client = PostgresClient(configuration: try DatabaseURL.configuration(url, connections: 4))
  let running = Task { await client.run() }
  defer { running.cancel() }

  let namespace = "bench-encrypted-\(UUID().uuidString.prefix(8))"
  let plain = try PostgresCacheLevel<String>(
    client: client, options: PostgresCacheOptions(namespace: namespace + "-plain"))
  let sealedLevel = try PostgresCacheLevel<String>(
    client: client, options: PostgresCacheOptions(namespace: namespace + "-sealed"))
  let encryption = CacheEncryption(
    keys: try CacheKeyRing(current: "k1", key: SymmetricKey(size: .bits256)),
    namespace: namespace)
  let encrypted = sealedLevel =>> encryption
  let plainMemory = MemoryCacheLevel<String, Data>() >>> plain
  let encryptedMemory = MemoryCacheLevel<String, Data>() >>> encrypted
  let value = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
  try await plain.set(value, forKey: "hot").value
  try await encrypted.set(value, forKey: "hot").value
  for _ in 0..<500 {
    _ = try await plain.get("hot").value
    _ = try await encrypted.get("hot").value
    _ = try await plainMemory.get("hot").value
    _ = try await encryptedMemory.get("hot").value
  }

  var times: [[Double]] = Array(repeating: [], count: 4)
  for round in 0..<rounds {
    let order = round % 2 == 0 ? [0, 1, 2, 3] : [1, 0, 3, 2]
    for row in order {
      times[row].append(
        try await perOperation(row < 2 ? count : count * 20) {
          switch row {
          case 0: _ = try await plain.get("hot").value
          case 1: _ = try await encrypted.get("hot").value
          case 2: _ = try await plainMemory.get("hot").value
          default: _ = try await encryptedMemory.get("hot").value
          }
        })
    }
  }
  let medians = times.map(median)
  print("\(rounds) rounds, 4 KiB values, AES-GCM, medians (µs per get)")
  print(String(format: "PostgreSQL get, plain: %.1f", medians[0] / 1000))
  print(String(format: "PostgreSQL get, encrypted: %.1f", medians[1] / 1000))
  print(String(format: "memory >>> PostgreSQL, memory hit, plain: %.2f", medians[2] / 1000))
  print(String(format: "memory >>> PostgreSQL, memory hit, encrypted: %.2f", medians[3] / 1000))
  print(String(format: "encrypted / plain, PostgreSQL get: %.2f", medians[1] / medians[0]))
  print(String(format: "encrypted / plain, memory hit: %.2f", medians[3] / medians[2]))
  plain.clear()
  sealedLevel.clear()
  await plain.writesFinished()
  await sealedLevel.writesFinished()
}

try await benchmark()
