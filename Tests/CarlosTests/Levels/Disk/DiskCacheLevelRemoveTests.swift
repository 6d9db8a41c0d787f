import Carlos
import Foundation
import Testing

@Suite("DiskCacheLevel remove", .recordingLog)
struct DiskCacheLevelRemoveTests {
  private func fileName(_ key: String) -> String {
    DiskCacheHooks.sha256Stem(Array(key.utf8)) + DiskCacheLevelFiles.cacheSuffix
  }

  @Test("A get issued after remove misses at once, while the file is still on disk")
  func removeHidesAtOnce() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let gate = DiskWriteGate()
    let level = DiskCacheLevel<String, Data>(
      path: folder.path, capacity: 1_000_000, fileManager: .default, coder: .data,
      hooks: DiskCacheHooks(failWrite: { gate.hook($0) }))
    try await level.set(Data("v".utf8), forKey: "k").value
    gate.hold()
    let blocker: Future<_> = level.set(Data([0]), forKey: "blocker")  // holds the level's queue
    #expect(await gate.waitUntilHeld())

    let removal: Future<_> = level.remove("k")

    #expect(DiskTestFolder.cacheFiles(in: folder.path).contains(fileName("k")))
    #expect(level.get("k").result?.error as? FetchError == .valueNotInCache)
    #expect(level.entry(forKey: "k").result?.error as? FetchError == .valueNotInCache)
    gate.release()
    try await blocker.value
    try await removal.value
    #expect(!DiskTestFolder.cacheFiles(in: folder.path).contains(fileName("k")))
    #expect(await level.indexedBytes() == diskTestFileSize(key: "blocker", valueBytes: 1))
    #expect(level.get("k").result?.error as? FetchError == .valueNotInCache)
  }

  @Test("Removing a key that was never stored succeeds and changes nothing")
  func removeMissing() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Data>(path: folder.path)
    try await level.set(Data([1]), forKey: "kept").value
    try await level.remove("never stored").value
    #expect(try await level.get("kept").value == Data([1]))
    #expect(DiskTestFolder.cacheFiles(in: folder.path) == [fileName("kept")])
  }

  @Test("A set after remove wins, both before and after the queue has run")
  func removeThenSet() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Data>(path: folder.path)
    try await level.set(Data("old".utf8), forKey: "k").value
    let removal: Future<_> = level.remove("k")
    let set: Future<_> = level.set(Data("new".utf8), forKey: "k")
    #expect(level.get("k").result?.value == Data("new".utf8))
    try await removal.value
    try await set.value
    #expect(try await level.get("k").value == Data("new".utf8))
    #expect(await level.indexedBytes() == diskTestFileSize(key: "k", valueBytes: 3))
    // And the reverse order: a remove after the set wins.
    let secondSet: Future<_> = level.set(Data("newer".utf8), forKey: "k")
    let secondRemoval: Future<_> = level.remove("k")
    #expect(level.get("k").result?.error as? FetchError == .valueNotInCache)
    try await secondSet.value
    try await secondRemoval.value
    #expect(level.get("k").result?.error as? FetchError == .valueNotInCache)
    #expect(await level.indexedBytes() == 0)
  }

  @Test("A removed key stays removed for a new level on the folder")
  func removalPersists() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Data>(path: folder.path)
    try await level.set(Data([1]), forKey: "k").value
    try await level.remove("k").value
    let reopened = DiskCacheLevel<String, Data>(path: folder.path)
    #expect(reopened.get("k").result?.error as? FetchError == .valueNotInCache)
  }

  @Test("Removes racing sets from many tasks end consistent: each key holds its writer's last word")
  func racingRemovesAndSets() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Data>(path: folder.path)
    let writers = 8
    let keysPerWriter = 5
    // Each writer owns its keys, issues set/remove in order, and every task reads
    // every key meanwhile; the writer reports its last operation per key.
    let finals = await withTaskGroup(of: [String: Data?].self) { group in
      for writer in 0..<writers {
        group.addTask {
          var generator = SystemRandomNumberGenerator()
          var last: [String: Data?] = [:]
          var futures: [Future<Void>] = []
          for step in 0..<200 {
            let key = "w\(writer)-k\(Int.random(in: 0..<keysPerWriter, using: &generator))"
            if Bool.random(using: &generator) {
              let value = Data("\(writer)-\(step)".utf8)
              futures.append(level.set(value, forKey: key))
              last[key] = .some(value)
            } else {
              futures.append(level.remove(key))
              last[key] = .some(nil)
            }
            let other = "w\(Int.random(in: 0..<writers, using: &generator))-k0"
            _ = try? await level.get(other)
          }
          for future in futures { _ = try? await future.value }
          return last
        }
      }
      var all: [String: Data?] = [:]
      for await finals in group { all.merge(finals) { $1 } }
      return all
    }

    let reopened = DiskCacheLevel<String, Data>(path: folder.path)
    for (key, expected) in finals {
      let here = level.get(key).result?.value
      let there = reopened.get(key).result?.value
      #expect(here == expected, "key \(key) in the level")
      #expect(there == expected, "key \(key) on disk")
    }
    #expect(await level.indexedBytes() == DiskTestFolder.cacheBytes(in: folder.path))
  }
}
