import Carlos
import Foundation
import Testing

/// The index is internal; it is tested through the level's view of it.
@Suite("DiskCacheLevel index", .recordingLog)
struct DiskCacheIndexTests {
  @Test("Reads and writes move files to the most recent end; scans put old files first")
  func recencyOrder() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let stems: @Sendable ([UInt8]) -> String = { DiskCacheHooks.hex($0) }
    let hooks = DiskCacheHooks(fileStem: stems)
    func level() -> DiskCacheLevel<String, Data> {
      DiskCacheLevel(
        path: folder.path, capacity: 1_000_000, fileManager: .default, coder: .data, hooks: hooks)
    }
    let name: (String) -> String = { DiskCacheHooks.hex(Array($0.utf8)) + ".cache" }
    let first = level()
    for key in ["a", "b", "c", "d"] {
      try await first.set(Data(key.utf8), forKey: key).value
    }
    #expect(await first.filesByRecency() == ["a", "b", "c", "d"].map(name))
    _ = try await first.get("b").value
    try await first.set(Data([0]), forKey: "a").value
    #expect(await first.filesByRecency() == ["c", "d", "b", "a"].map(name))

    // A new level learns the files, orders them by modification time, and a
    // read before anything else makes that file the most recent.
    let second = level()
    _ = try await second.get("c").value
    let order = await second.filesByRecency()
    #expect(order.count == 4)
    #expect(order.last == name("c"))
    #expect(Set(order) == Set(["a", "b", "c", "d"].map(name)))
  }
}
