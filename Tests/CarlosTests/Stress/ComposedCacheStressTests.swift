import Carlos
import Foundation
import Testing

/// Many tasks hammering one composed cache: memory >>> disk >>> fetcher, pooled.
@Suite("Composed cache under load")
struct ComposedCacheStressTests {
  @Test("8 tasks of mixed gets and sets over shared keys always see a value of the right key")
  func hammering() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("carlos-stress-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: folder) }

    let fetches = Guarded(0)
    let memory = MemoryCacheLevel<String, Data>(capacity: 8 * 1024)
    let disk = DiskCacheLevel<String, Data>(path: folder, capacity: 64 * 1024)
    let network = { @Sendable (key: String) -> Future<Data> in
      fetches.withLock { $0 += 1 }
      return Future(Data("\(key)|fetched".utf8)).snooze(0.000_5)
    }
    let cache = (memory >>> disk >>> network).pooled()

    let mismatches = await withTaskGroup(of: Int.self) { group in
      for task in 0..<8 {
        group.addTask {
          var generator = SeededGenerator(seed: UInt64(task))
          var mismatches = 0
          for step in 0..<400 {
            let key = "key-\(Int.random(in: 0..<64, using: &generator))"
            if step % 5 == 0 {
              _ = try? await cache.set(Data("\(key)|set by \(task)".utf8), forKey: key).value
            } else if let data = try? await cache.get(key).value {
              let text = String(decoding: data, as: UTF8.self)
              if !text.hasPrefix("\(key)|") { mismatches += 1 }
            } else {
              mismatches += 1
            }
            if step % 97 == 0 { cache.onMemoryWarning() }
          }
          return mismatches
        }
      }
      return await group.reduce(0, +)
    }
    #expect(mismatches == 0)
    #expect(fetches.withLock { $0 } <= 8 * 400)
    #expect(memory.totalCost <= 8 * 1024)
  }
}
