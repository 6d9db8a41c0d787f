import Carlos
import Foundation

extension Example {
  static let remove: Example = Example(
    name: "remove",
    summary:
      "remove(_:) invalidates one key on every level; a fetch in flight never writes back over it"
  ) {
    let memory = MemoryCacheLevel<String, String>(capacity: 1_000)
    let folder = NSTemporaryDirectory() + "carlos-playground-remove-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let disk = DiskCacheLevel<String, String>(path: folder)
    let cache = memory >>> disk

    try await cache.set("Ada", forKey: "user:1").value
    print(
      "before: memory \(await outcome(memory.get("user:1"))), disk \(await outcome(disk.get("user:1")))"
    )
    try await cache.remove("user:1").value
    print(
      "after remove: memory \(await outcome(memory.get("user:1"))), disk \(await outcome(disk.get("user:1")))"
    )

    // A slow fetch races a newer set: the set wins, the fetched value is not written back.
    let network = Promise<String>()
    let slow = memory >>> { _ in network.future }
    let get: Future<String> = slow.get("user:2")
    try await slow.set("newer value set by the app", forKey: "user:2")
    network.succeed("older value from the network")
    print("the get answers \(await outcome(get))")
    print("memory keeps \(await outcome(memory.get("user:2")))")
  }
}
