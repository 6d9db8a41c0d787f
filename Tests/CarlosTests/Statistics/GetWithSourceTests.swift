import Carlos
import Foundation
import Testing

@Suite("Which level answered")
struct GetWithSourceTests {
  let memory = MemoryCacheLevel<String, String>(capacity: 1_000)
  let disk = MemoryCacheLevel<String, String>(capacity: 1_000)

  private func cache() -> BasicCache<String, String> {
    memory.recordingStatistics("memory") >>> disk.recordingStatistics("disk")
      >>> { key in Future("fetched \(key)") }
  }

  @Test("a composition names the level that had the value, and whether it was written back")
  func composed() async throws {
    let cache = cache()
    try await disk.set("on disk", forKey: "d")
    let fromNetwork = try await cache.getWithSource("n")
    #expect(fromNetwork.value == "fetched n")
    #expect(fromNetwork.source == "BasicFetcher")
    #expect(fromNetwork.wasWrittenBack)
    let fromDisk = try await cache.getWithSource("d")
    #expect(fromDisk.source == "disk" && fromDisk.wasWrittenBack)
    let fromMemory = try await cache.getWithSource("d")
    #expect(fromMemory.source == "memory" && !fromMemory.wasWrittenBack)
  }

  @Test("a value not written back because of a newer set says so")
  func notWrittenBack() async throws {
    let fetch = Promise<String>()
    let cache = memory.recordingStatistics("memory") >>> { _ in fetch.future }
    let answer: Future<_> = cache.getWithSource("k")
    try await cache.set("newer", forKey: "k")
    fetch.succeed("older")
    #expect(try await answer.value.wasWrittenBack == false)
  }

  @Test("transformations keep the source; an unnamed level is named by its type")
  func throughCombinators() async throws {
    try await memory.set("42", forKey: "#7")
    let cache =
      { (key: Int) in Future("#\(key)") } =>> memory
      =>> TwoWayTransformationBox<String, Int>(
        transform: { Future(value: Int($0), error: TestError(1)) },
        inverseTransform: { Future("\($0)") })
    let answer = try await cache.getWithSource(7)
    #expect(answer.value == 42)
    #expect(answer.source == "MemoryCacheLevel")
    let pooled = try await memory.pooled().getWithSource("#7")
    #expect(pooled.source == "MemoryCacheLevel")
  }
}
