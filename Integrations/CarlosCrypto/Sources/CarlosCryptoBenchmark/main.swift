#if Crypto
// What encryption costs a get, in one run, best of 5 rounds, the order alternating:
//
//   swift run -c release --package-path Integrations/CarlosCrypto CarlosCryptoBenchmark [KEYS]
//
// CARLOS_BENCH_ALGORITHM=chacha measures ChaCha20-Poly1305 instead of AES-GCM.
//
// Rows: a 4 KiB value read from a disk level, plain and through `=>> encryption`
// (AES-GCM); the same through `memory >>> …` when the memory level answers; and
// sealing and opening 4 KiB alone, next to swift-crypto's own open of the same
// bytes with associated data (the floor of `open`). Prints nanoseconds per get and
// each ratio.
import Carlos
import CarlosCrypto
import Crypto
import Foundation

// Everything runs off the main actor: top-level code is main-actor isolated, and a
// hop to it and back at every get would be measured instead of the get.
nonisolated func benchmark() async throws {
  let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1000 : 1000
  let keys = (0..<count).map { "user:\($0)" }
  let value = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("carlos-crypto-benchmark-\(ProcessInfo.processInfo.processIdentifier)")
  defer { try? FileManager.default.removeItem(at: folder) }

  let encryption = CacheEncryption(
    keys: try CacheKeyRing(current: "k1", key: SymmetricKey(size: .bits256)), namespace: "bench",
    algorithm: ProcessInfo.processInfo.environment["CARLOS_BENCH_ALGORITHM"] == "chacha"
      ? .chaChaPoly : .aesGCM)
  let plainDisk = DiskCacheLevel<String, Data>(path: folder.appendingPathComponent("plain").path)
  let encryptedDisk =
    DiskCacheLevel<String, Data>(path: folder.appendingPathComponent("sealed").path) =>> encryption
  let plainMemory = MemoryCacheLevel<String, Data>() >>> plainDisk
  let encryptedMemory = MemoryCacheLevel<String, Data>() >>> encryptedDisk
  for key in keys {
    try await plainDisk.set(value, forKey: key)
    try await encryptedDisk.set(value, forKey: key)
    _ = try await plainMemory.get(key)
    _ = try await encryptedMemory.get(key)
  }

  /// Nanoseconds per call of `body` over every key, best of `rounds`.
  func time(_ body: (String) async throws -> Void) async throws -> Double {
    let start = ContinuousClock.now
    for key in keys { try await body(key) }
    let elapsed = ContinuousClock.now - start
    return (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9)
      / Double(keys.count)
  }

  let sealed = try encryption.seal(value, forKey: "user:1")
  let rawKey = SymmetricKey(size: .bits256)
  let box = try AES.GCM.seal(value, using: rawKey)
  let associated = [UInt8](repeating: 7, count: 40)
  let combined = try AES.GCM.seal(value, using: rawKey, authenticating: associated).combined!
  let rows: [(String, (String) async throws -> Void)] = [
    ("disk get, plain", { _ = try await plainDisk.get($0) as Data }),
    ("disk get, encrypted", { _ = try await encryptedDisk.get($0) as Data }),
    ("memory >>> disk, memory hit, plain", { _ = try await plainMemory.get($0) }),
    ("memory >>> disk, memory hit, encrypted", { _ = try await encryptedMemory.get($0) }),
    ("seal 4 KiB", { _ in _ = try encryption.seal(value, forKey: "user:1") }),
    ("open 4 KiB", { _ in _ = try encryption.open(sealed, forKey: "user:1") }),
    ("AES.GCM.open of 4 KiB alone", { _ in _ = try AES.GCM.open(box, using: rawKey) }),
    (
      "AES.GCM.open of 4 KiB from combined bytes, 40 B associated data",
      { _ in
        _ = try AES.GCM.open(
          AES.GCM.SealedBox(combined: combined), using: rawKey, authenticating: associated)
      }
    ),
  ]
  var best = [Double](repeating: .infinity, count: rows.count)
  for round in 0..<5 {
    let order = round % 2 == 0 ? Array(rows.indices) : rows.indices.reversed()
    for index in order { best[index] = min(best[index], try await time(rows[index].1)) }
  }
  print("\(count) keys, 4 KiB values, AES-GCM, best of 5 rounds (ns per call)")
  for (index, row) in rows.enumerated() {
    print("\(row.0): \(Int(best[index].rounded()))")
  }
  print(String(format: "encrypted / plain, disk get: %.2f", best[1] / best[0]))
  print(String(format: "encrypted / plain, memory hit: %.2f", best[3] / best[2]))
}

try await benchmark()
#else
import Foundation

FileHandle.standardError.write(
  Data(
    "CarlosCryptoBenchmark is built only with the package trait Crypto: swift run --traits Crypto CarlosCryptoBenchmark\n"
      .utf8))
exit(2)
#endif
