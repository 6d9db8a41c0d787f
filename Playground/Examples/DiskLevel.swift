import Carlos
import Foundation
import Synchronization

extension Example {
  static let diskLevel: Example = Example(
    name: "disk",
    summary: "DiskCacheLevel: persistent, bounded, least-recently-used files that survive restarts"
  ) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("carlos-playground-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: folder) }

    // Data is stored byte for byte; the key never becomes a path.
    let disk = DiskCacheLevel<String, Data>(path: folder + "/data", capacity: 10_000)
    try await disk.set(Data("hello from the disk".utf8), forKey: "../../etc/passwd").value
    let read = try await disk.get("../../etc/passwd").value
    print("a hostile key reads back: \(String(decoding: read, as: UTF8.self))")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder + "/data")
    print("stored as \(files) inside the level's folder")

    // A second level on the same folder (as after a restart) sees the value.
    let reopened = DiskCacheLevel<String, Data>(path: folder + "/data", capacity: 10_000)
    print(
      "after reopening: \(String(decoding: try await reopened.get("../../etc/passwd").value, as: UTF8.self))"
    )

    // The capacity counts bytes on disk; the least recently used files go first.
    for index in 1...4 {
      try await reopened.set(Data(count: 3_000), forKey: "big-\(index)").value
      print("stored big-\(index) (3 kB)")
    }
    print("the oldest entry was evicted: \(await outcome(reopened.get("../../etc/passwd")))")
    print(
      "a value larger than the capacity is refused: \(await outcome(reopened.set(Data(count: 20_000), forKey: "huge")))"
    )

    // Any Codable value works too: it is stored as JSON.
    struct Settings: Codable, Sendable {
      var theme: String
      var fontSize: Int
    }
    let settings = DiskCacheLevel<String, Settings>(path: folder + "/settings")
    try await settings.set(Settings(theme: "dark", fontSize: 14), forKey: "alice").value
    let alice = try await settings.get("alice").value
    print("Codable value: theme \(alice.theme), font size \(alice.fontSize)")

    // A damaged file is a miss, never a wrong value. The level removes the file and logs
    // a warning; this example damages it on purpose, so it shows the warning here, in its
    // own output, rather than on standard error.
    let name = try FileManager.default.contentsOfDirectory(atPath: folder + "/settings")[0]
    try Data("garbage".utf8).write(to: URL(fileURLWithPath: folder + "/settings/" + name))
    let warnings = Mutex<[String]>([])
    let standardOutput = CarlosLogger.output
    CarlosLogger.output = { message, level in
      warnings.withLock { $0.append("\(level): \(message)") }
    }
    print("after damaging its file: \(await outcome(settings.get("alice")))")
    CarlosLogger.output = standardOutput
    for warning in warnings.withLock({ $0 }) { print("the level logged, as expected: \(warning)") }

    // Levels compose: the disk level's types are inferred from the level above it.
    let cache = IdentityLevel<URL, Data>() >>> DiskCacheLevel(path: folder + "/composed")
    let url = URL(fileURLWithPath: "/images/logo.png")
    try await cache.set(Data([0x89, 0x50, 0x4E, 0x47]), forKey: url).value
    print(
      "composed cache read \(try await cache.get(url).value.count) bytes for \(url.lastPathComponent)"
    )
  }
}
