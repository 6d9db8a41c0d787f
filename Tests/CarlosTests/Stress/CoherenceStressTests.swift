import Carlos
import Foundation
import Testing

/// Gets racing sets and removes through `memory >>> disk` never leave the two
/// levels disagreeing: a value fetched from disk is written into memory only if
/// no write of its key went through the composition since the get started.
@Suite("Composition coherence under load")
struct CoherenceStressTests {
  static let threads = 8
  static let keys = 100
  static let operationsPerThread = 12

  /// What a thread does at one step of a round.
  enum Operation: Equatable {
    case get(Int)
    case set(Int, String)
    case remove(Int)
  }

  /// The deterministic operation of `thread` at `step` of `round`: reads of any
  /// key, and writes only of the keys this thread owns (key % threads == thread).
  static func operation(round: Int, thread: Int, step: Int) -> Operation {
    var generator = SeededGenerator(seed: UInt64(round * 1_000_003 + thread * 1_009 + step))
    let key = Int.random(in: 0..<keys, using: &generator)
    guard key % threads == thread else { return .get(key) }
    switch Int.random(in: 0..<10, using: &generator) {
    case 0..<4: return .get(key)
    case 4..<8: return .set(key, "k\(key)-r\(round)-s\(step)")
    default: return .remove(key)
    }
  }

  @Test("memory >>> disk: 2,000 rounds of 8 threads, then every key agrees on both levels")
  func memoryOverDisk() async throws {
    let root =
      FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let folder = root + "/carlos-coherence-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // A small memory level, so gets often miss it and fetch from disk.
    let memory = MemoryCacheLevel<String, String>(capacity: 400)
    let disk = DiskCacheLevel<String, String>(path: folder, capacity: 10_000_000)
    let cache = memory >>> disk
    var expected: [Int: String] = [:]
    var disagreements: [String] = []

    for round in 0..<2_000 {
      memory.clear()
      let futures = await issueConcurrently(
        threads: Self.threads, perThread: Self.operationsPerThread
      ) { thread, step -> Future<Void> in
        switch Self.operation(round: round, thread: thread, step: step) {
        case .get(let key): return cache.get("\(key)").map { _ in () }.recover { _ in () }
        case .set(let key, let value): return cache.set(value, forKey: "\(key)")
        case .remove(let key): return cache.remove("\(key)")
        }
      }
      #expect(await waitUntilCompleted(futures))
      for thread in 0..<Self.threads {
        for step in 0..<Self.operationsPerThread {
          switch Self.operation(round: round, thread: thread, step: step) {
          case .get: break
          case .set(let key, let value): expected[key] = value
          case .remove(let key): expected[key] = nil
          }
        }
      }
      for key in 0..<Self.keys {
        let inMemory = memory.get("\(key)").result?.value
        let onDisk = disk.get("\(key)").result?.value
        if onDisk != expected[key] || (inMemory != nil && inMemory != onDisk) {
          disagreements.append(
            "round \(round) key \(key): memory \(inMemory ?? "-") disk \(onDisk ?? "-") expected \(expected[key] ?? "-")"
          )
        }
      }
      if disagreements.count > 5 { break }
    }
    #expect(disagreements.isEmpty, "\(disagreements)")
  }
}
