import Carlos
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private struct Profile: Codable, Equatable, Sendable {
  var name: String
  var age: Int
  var tags: [String]
}

@Suite("DiskCacheLevel", .recordingLog)
struct DiskCacheLevelTests {
  // MARK: - Values

  @Test("Data round-trips byte for byte, and the file ends with exactly those bytes")
  func dataRoundTrip() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Data>(path: folder.path)
    let value = diskTestBytes(10_000, seed: 1) + Data([0, 0xFF, 0x0A, 0x0D])
    try await level.set(value, forKey: "blob").value
    #expect(try await level.get("blob").value == value)

    let files = DiskTestFolder.cacheFiles(in: folder.path)
    #expect(files.count == 1)
    let stored = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + files[0]))
    #expect(stored.count == Int(diskTestFileSize(key: "blob", valueBytes: value.count)))
    #expect(stored.suffix(value.count) == value)
  }

  @Test("Empty Data round-trips")
  func emptyData() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Data>(path: folder.path)
    try await level.set(Data(), forKey: "nothing").value
    #expect(try await level.get("nothing").value == Data())
  }

  @Test("Codable values round-trip: structs, numbers and strings")
  func codableRoundTrip() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let profiles = DiskCacheLevel<String, Profile>(path: folder.child("profiles"))
    let profile = Profile(name: "Ada", age: 36, tags: ["math", "engines"])
    try await profiles.set(profile, forKey: "ada").value
    #expect(try await profiles.get("ada").value == profile)

    let numbers = DiskCacheLevel<String, Int>(path: folder.child("numbers"))
    try await numbers.set(42, forKey: "answer").value
    #expect(try await numbers.get("answer").value == 42)

    let strings = DiskCacheLevel<URL, String>(path: folder.child("strings"))
    let url = try #require(URL(string: "https://example.com/a?b=c"))
    try await strings.set("héllo 👋", forKey: url).value
    #expect(try await strings.get(url).value == "héllo 👋")
  }

  @Test("Data is stored raw even through the Codable initializer in generic code")
  func dataThroughGenericCodableInit() async throws {
    func makeLevel<V: Codable & Sendable>(_: V.Type, path: String) -> DiskCacheLevel<String, V> {
      DiskCacheLevel(path: path)
    }
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let generic = makeLevel(Data.self, path: folder.path)
    let value = Data("raw bytes, not base64".utf8)
    try await generic.set(value, forKey: "k").value
    let plain = DiskCacheLevel<String, Data>(path: folder.path)
    #expect(try await plain.get("k").value == value)
    let files = DiskTestFolder.cacheFiles(in: folder.path)
    let stored = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + files[0]))
    #expect(stored.suffix(value.count) == value)
  }

  @Test("A miss fails with valueNotInCache")
  func miss() async {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Data>(path: folder.path)
    await #expect(throws: FetchError.valueNotInCache) { try await level.get("absent").value }
  }

  @Test("A set replaces the earlier value and the size accounting")
  func replace() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Data>(path: folder.path)
    try await level.set(diskTestBytes(5_000, seed: 1), forKey: "k").value
    try await level.set(Data("short".utf8), forKey: "k").value
    #expect(try await level.get("k").value == Data("short".utf8))
    #expect(await level.indexedBytes() == diskTestFileSize(key: "k", valueBytes: 5))
    #expect(DiskTestFolder.cacheFiles(in: folder.path).count == 1)
  }

  @Test("A value that cannot be encoded fails with valueEncodingFailed")
  func encodingFailure() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Double>(path: folder.path)
    let error = await diskTestFailure(level.set(.nan, forKey: "nan"))
    guard case .valueEncodingFailed? = error as? DiskCacheLevelError else {
      Issue.record("expected valueEncodingFailed, got \(String(describing: error))")
      return
    }
    #expect(DiskTestFolder.cacheFiles(in: folder.path).isEmpty)
  }

  @Test("A value stored by a level of another type is invalidCachedData and is removed")
  func wrongType() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let strings = DiskCacheLevel<String, String>(path: folder.path)
    try await strings.set("not a number", forKey: "k").value
    try await strings.set("raw?", forKey: "j").value

    let numbers = DiskCacheLevel<String, Int>(path: folder.path)
    await #expect(throws: FetchError.invalidCachedData) { try await numbers.get("k").value }
    let data = DiskCacheLevel<String, Data>(path: folder.path)
    await #expect(throws: FetchError.invalidCachedData) { try await data.get("j").value }
    _ = await data.filesByRecency()
    _ = await numbers.filesByRecency()  // waits for the removals
    #expect(DiskTestFolder.cacheFiles(in: folder.path).isEmpty)
  }

  // MARK: - Persistence and capacity

  @Test("A second level on the same folder sees the first one's values")
  func persistence() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    do {
      let first = DiskCacheLevel<String, Data>(path: folder.path)
      for index in 0..<10 {
        try await first.set(diskTestBytes(100 + index, seed: UInt64(index)), forKey: "key-\(index)")
          .value
      }
    }
    let second = DiskCacheLevel<String, Data>(path: folder.path)
    for index in 0..<10 {
      #expect(
        try await second.get("key-\(index)").value
          == diskTestBytes(100 + index, seed: UInt64(index)))
    }
    let expected = (0..<10).reduce(UInt64(0)) {
      $0 + diskTestFileSize(key: "key-\($1)", valueBytes: 100 + $1)
    }
    #expect(await second.indexedBytes() == expected)
  }

  @Test("The total size never exceeds the capacity after a set")
  func capacityHolds() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let capacity: UInt64 = 20_000
    let level = DiskCacheLevel<String, Data>(path: folder.path, capacity: capacity)
    for index in 0..<60 {
      let size = 500 + (index * 337) % 4_000
      try await level.set(diskTestBytes(size, seed: UInt64(index)), forKey: "key-\(index)").value
      let onDisk = DiskTestFolder.cacheBytes(in: folder.path)
      #expect(onDisk <= capacity)
      #expect(await level.indexedBytes() == onDisk)
    }
    // The value just set is always kept.
    #expect(
      try await level.get("key-59").value == diskTestBytes(500 + (59 * 337) % 4_000, seed: 59))
  }

  @Test("The least recently read or written file is evicted first")
  func leastRecentlyUsedEviction() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let fileSize = diskTestFileSize(key: "a", valueBytes: 1_000)
    let level = DiskCacheLevel<String, Data>(path: folder.path, capacity: fileSize * 3)
    for key in ["a", "b", "c"] {
      try await level.set(diskTestBytes(1_000, seed: 7), forKey: key).value
    }
    _ = try await level.get("a").value  // a is now more recent than b and c
    try await level.set(diskTestBytes(1_000, seed: 8), forKey: "d").value
    await #expect(throws: FetchError.valueNotInCache) { try await level.get("b").value }
    #expect(try await level.get("a").value == diskTestBytes(1_000, seed: 7))
    #expect(try await level.get("c").value == diskTestBytes(1_000, seed: 7))
    #expect(try await level.get("d").value == diskTestBytes(1_000, seed: 8))
    #expect(DiskTestFolder.cacheFiles(in: folder.path).count == 3)
  }

  @Test("Recency survives a restart: reads touch their file")
  func recencyAcrossRestarts() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let fileSize = diskTestFileSize(key: "a", valueBytes: 1_000)
    // Timestamps have the file system's resolution (a few milliseconds):
    // space the operations out so their order is visible on disk.
    let spacing: UInt64 = 30_000_000
    do {
      let first = DiskCacheLevel<String, Data>(path: folder.path, capacity: fileSize * 3)
      for key in ["a", "b", "c"] {
        try await first.set(diskTestBytes(1_000, seed: 1), forKey: key).value
        try await Task.sleep(nanoseconds: spacing)
      }
      _ = try await first.get("a").value
      try await Task.sleep(nanoseconds: spacing)
    }
    let second = DiskCacheLevel<String, Data>(path: folder.path, capacity: fileSize * 3)
    #expect(await second.filesByRecency().count == 3)
    try await second.set(diskTestBytes(1_000, seed: 2), forKey: "d").value
    await #expect(throws: FetchError.valueNotInCache) { try await second.get("b").value }
    #expect(try await second.get("a").value == diskTestBytes(1_000, seed: 1))
    #expect(try await second.get("c").value == diskTestBytes(1_000, seed: 1))
  }

  @Test("A level with a smaller capacity trims what it finds on its first set")
  func smallerCapacityOnReopen() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    do {
      let big = DiskCacheLevel<String, Data>(path: folder.path, capacity: 1_000_000)
      for index in 0..<20 {
        // File times have the resolution of the kernel's clock tick: leave a
        // gap before the last write, so its file is the newest on disk.
        if index == 19 { try await Task.sleep(nanoseconds: 30_000_000) }
        try await big.set(diskTestBytes(2_000, seed: UInt64(index)), forKey: "k\(index)").value
      }
    }
    let capacity: UInt64 = 10_000
    let small = DiskCacheLevel<String, Data>(path: folder.path, capacity: capacity)
    try await small.set(Data("new".utf8), forKey: "new").value
    #expect(DiskTestFolder.cacheBytes(in: folder.path) <= capacity)
    #expect(await small.indexedBytes() == DiskTestFolder.cacheBytes(in: folder.path))
    #expect(try await small.get("new").value == Data("new".utf8))
    // The survivors are the most recent ones.
    #expect(try await small.get("k19").value == diskTestBytes(2_000, seed: 19))
  }

  @Test("A value larger than the whole capacity fails and leaves the level as it was")
  func valueTooLarge() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Data>(path: folder.path, capacity: 1_000)
    try await level.set(Data("small".utf8), forKey: "small").value
    let error = await diskTestFailure(level.set(diskTestBytes(2_000, seed: 1), forKey: "big"))
    #expect(
      error as? DiskCacheLevelError
        == .valueTooLarge(size: diskTestFileSize(key: "big", valueBytes: 2_000), capacity: 1_000))
    #expect(try await level.get("small").value == Data("small".utf8))
    await #expect(throws: FetchError.valueNotInCache) { try await level.get("big").value }
  }

  // MARK: - Keys

  @Test("A digest collision never returns another key's value")
  func collidingDigests() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let hooks = DiskCacheHooks(fileStem: { _ in "c0111de" })
    let level = DiskCacheLevel<String, Data>(
      path: folder.path, capacity: 1_000_000, fileManager: .default, coder: .data, hooks: hooks)
    try await level.set(Data("first".utf8), forKey: "first").value
    await #expect(throws: FetchError.valueNotInCache) { try await level.get("second").value }
    try await level.set(Data("second".utf8), forKey: "second").value
    await #expect(throws: FetchError.valueNotInCache) { try await level.get("first").value }
    #expect(try await level.get("second").value == Data("second".utf8))
    // The other key's file is valid: a miss must not remove it.
    _ = await diskTestFailure(level.get("first"))
    _ = await level.filesByRecency()
    #expect(DiskTestFolder.cacheFiles(in: folder.path) == ["c0111de.cache"])
    #expect(await level.indexedBytes() == diskTestFileSize(key: "second", valueBytes: 6))

    // Keys that share a prefix or differ only in length collide too.
    try await level.set(Data("long".utf8), forKey: "second-and-more").value
    await #expect(throws: FetchError.valueNotInCache) { try await level.get("second").value }
    await #expect(throws: FetchError.valueNotInCache) { try await level.get("").value }
  }

  @Test("A digest hook that does not give a safe name makes the key invalid")
  func unsafeStem() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    for stem in ["../escape", "", "ABC", String(repeating: "a", count: 65), "a/b"] {
      let hooks = DiskCacheHooks(fileStem: { _ in stem })
      let level = DiskCacheLevel<String, Data>(
        path: folder.child("level"), capacity: 1_000, fileManager: .default, coder: .data,
        hooks: hooks)
      await #expect(throws: FetchError.invalidKey) {
        try await level.set(Data([1]), forKey: "k").value
      }
      await #expect(throws: FetchError.invalidKey) { try await level.get("k").value }
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(names == ["level"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.child("level")).isEmpty)
  }

  @Test("Hostile keys round-trip and never create anything outside the folder")
  func hostileKeys() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let levelPath = folder.child("cache")
    let level = DiskCacheLevel<String, Data>(path: levelPath)
    let keys = [
      "../../etc/passwd", "../escape", "/abs/path", "/", ".", "..", "", " ", "a/b/c", "~",
      String(repeating: "x", count: 10_000), String(repeating: "🦄", count: 3_000),
      "emoji 👩‍👩‍👧‍👦 family", "nul\u{0}inside", "\u{FFFF}\u{FFFE}\u{10FFFF}", "e\u{301}", "\u{E9}",
      "line\nbreak\ttab\r", "C:\\Windows\\system32", "%2e%2e%2f", "name.cache", ".tmp-1-2-3",
    ]
    for (index, key) in keys.enumerated() {
      try await level.set(Data("value \(index)".utf8), forKey: key).value
    }
    for key in keys {
      // "e\u{301}" and "\u{E9}" are one key (Swift's `==` says so): the later set wins.
      let index = try #require(keys.lastIndex(of: key))
      #expect(
        try await level.get(key).value == Data("value \(index)".utf8), "key \(key.prefix(40))")
    }
    // Only the level's folder exists next to it, and it holds only cache files.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["cache"])
    let names = try FileManager.default.contentsOfDirectory(atPath: levelPath)
    #expect(names.count == keys.count - 1)  // "e\u{301}" and "\u{E9}" share one file
    #expect(names.allSatisfy { DiskCacheLevelFiles.isCacheFile($0) })
    #expect(!FileManager.default.fileExists(atPath: folder.child("etc")))
    #expect(!FileManager.default.fileExists(atPath: "/abs"))
  }

  @Test("Canonically equivalent spellings of a key are one key", arguments: [false, true])
  func canonicalKeys(composedFirst: Bool) async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    let (setKey, getKey) = composedFirst ? (composed, decomposed) : (decomposed, composed)
    try await DiskCacheLevel<String, Data>(path: folder.path).set(Data([7]), forKey: setKey).value
    // A new level knows nothing but the files.
    let reopened = DiskCacheLevel<String, Data>(path: folder.path)
    #expect(try await reopened.get(getKey).value == Data([7]))
    try await reopened.set(Data([8]), forKey: getKey).value
    #expect(DiskTestFolder.cacheFiles(in: folder.path).count == 1)
    #expect(try await reopened.get(setKey).value == Data([8]))
  }

  @Test("memory >>> disk: one key under either spelling, also once memory is cleared")
  func canonicalKeysComposed() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let memory = MemoryCacheLevel<String, Data>(capacity: 1_000)
    let cache = memory >>> DiskCacheLevel<String, Data>(path: folder.path)
    try await cache.set(Data([1]), forKey: "\u{C5}ngstr\u{F6}m").value
    #expect(try await cache.get("A\u{30A}ngstro\u{308}m").value == Data([1]))
    memory.clear()
    #expect(try await cache.get("A\u{30A}ngstro\u{308}m").value == Data([1]))
  }

  @Test("File names come from SHA-256 and are stable across processes")
  func stableNames() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Data>(path: folder.path)
    try await level.set(Data([1]), forKey: "abc").value
    // SHA-256("abc") starts with ba7816bf8f01cfea414140de5dae2223.
    #expect(
      DiskTestFolder.cacheFiles(in: folder.path) == ["ba7816bf8f01cfea414140de5dae2223.cache"])
  }

  // MARK: - Corruption

  @Test(
    "A torn, truncated, garbled or empty file is a miss and is removed",
    arguments: [
      "truncated", "headerOnly", "empty", "flippedValue", "flippedKey", "flippedHeader",
      "extraBytes",
      "garbage", "wrongLength",
    ]
  )
  func corruptedFile(corruption: String) async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Data>(path: folder.path)
    let value = diskTestBytes(3_000, seed: 3)
    try await level.set(value, forKey: "victim").value
    try await level.set(Data("bystander".utf8), forKey: "bystander").value
    let name = DiskCacheHooks.sha256Stem(Array("victim".utf8)) + DiskCacheLevelFiles.cacheSuffix
    let fileURL = URL(fileURLWithPath: folder.path + "/" + name)
    var bytes = [UInt8](try Data(contentsOf: fileURL))
    switch corruption {
    case "truncated": bytes.removeLast(1_000)
    case "headerOnly": bytes = Array(bytes.prefix(DiskCacheFileFormat.headerSize))
    case "empty": bytes = []
    case "flippedValue": bytes[bytes.count - 10] ^= 0x01
    case "flippedKey": bytes[DiskCacheFileFormat.headerSize + 1] ^= 0x20
    case "flippedHeader": bytes[13] ^= 0x80
    case "extraBytes": bytes += [0, 1, 2]
    case "wrongLength": bytes[16] ^= 0x01
    default: bytes = Array(diskTestBytes(bytes.count, seed: 99))
    }
    try Data(bytes).write(to: fileURL)

    await #expect(throws: FetchError.valueNotInCache) { try await level.get("victim").value }
    _ = await level.filesByRecency()  // waits for the removal
    #expect(!FileManager.default.fileExists(atPath: fileURL.path))
    #expect(await level.indexedBytes() == diskTestFileSize(key: "bystander", valueBytes: 9))
    #expect(try await level.get("bystander").value == Data("bystander".utf8))
    // The key works again afterwards.
    try await level.set(value, forKey: "victim").value
    #expect(try await level.get("victim").value == value)
  }

  // MARK: - Refusing disks

  @Test(
    "A file that cannot be read is a miss and is removed, unless the failure is the process's (out of descriptors or memory)",
    arguments: [(EIO, true), (EACCES, true), (EMFILE, false), (ENOMEM, false)])
  func unreadableFile(code: Int32, removed: Bool) async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let failing = Lock<Int32?>(nil)
    let hooks = DiskCacheHooks(failRead: { _ in failing.withLock { $0 } })
    let level = DiskCacheLevel<String, Data>(
      path: folder.path, capacity: 1_000_000, fileManager: .default, coder: .data, hooks: hooks)
    try await level.set(Data("value".utf8), forKey: "k").value
    #expect(await level.filesByRecency().count == 1)
    failing.withLock { $0 = code }
    await #expect(throws: FetchError.valueNotInCache) { try await level.get("k").value }
    failing.withLock { $0 = nil }
    #expect(await level.filesByRecency().isEmpty == removed)
    if removed {
      await #expect(throws: FetchError.valueNotInCache) { try await level.get("k").value }
    } else {
      #expect(try await level.get("k").value == Data("value".utf8))
    }
  }

  @Test("A refused write fails with writeFailed and leaves the stored values readable")
  func refusedWrite() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let refuse = RefusalSwitch()
    let hooks = DiskCacheHooks(failWrite: { _ in refuse.isOn ? ENOSPC : nil })
    let level = DiskCacheLevel<String, Data>(
      path: folder.path, capacity: 1_000_000, fileManager: .default, coder: .data, hooks: hooks)
    try await level.set(Data("kept".utf8), forKey: "old").value
    let before = await level.indexedBytes()
    refuse.isOn = true
    let error = await diskTestFailure(level.set(Data("new".utf8), forKey: "old"))
    guard case .writeFailed(let path, let code, let reason)? = error as? DiskCacheLevelError else {
      Issue.record("expected writeFailed, got \(String(describing: error))")
      return
    }
    #expect(code == ENOSPC)
    #expect(path.hasPrefix(folder.path + "/"))
    #expect(!reason.isEmpty)
    await #expect(throws: (any Error).self) {
      try await level.set(Data("x".utf8), forKey: "another").value
    }
    #expect(try await level.get("old").value == Data("kept".utf8))
    #expect(await level.indexedBytes() == before)
    refuse.isOn = false
    try await level.set(Data("new".utf8), forKey: "old").value
    #expect(try await level.get("old").value == Data("new".utf8))
  }

  @Test(
    "A read-only folder makes set fail and keeps values readable (permission bits, when not root)")
  func readOnlyFolder() async throws {
    let folder = DiskTestFolder()
    defer {
      chmod(folder.path, 0o755)
      folder.remove()
    }
    let level = DiskCacheLevel<String, Data>(path: folder.path)
    try await level.set(Data("kept".utf8), forKey: "old").value
    #expect(chmod(folder.path, 0o555) == 0)
    let error = await diskTestFailure(level.set(Data("new".utf8), forKey: "old"))
    if geteuid() == 0 {
      // Root ignores permission bits: the write succeeds. The refusal itself is
      // covered by refusedWrite and the blocked-folder tests.
      #expect(error == nil)
    } else {
      guard case .writeFailed(_, let code, _)? = error as? DiskCacheLevelError else {
        Issue.record("expected writeFailed, got \(String(describing: error))")
        return
      }
      #expect(code == EACCES || code == EPERM || code == EROFS)
      #expect(try await level.get("old").value == Data("kept".utf8))
    }
  }

  @Test(
    "A folder that cannot be created makes set fail with couldNotCreateDirectory (also as root)")
  func folderCannotBeCreated() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let blocker = folder.child("file")
    try Data("I am a file".utf8).write(to: URL(fileURLWithPath: blocker))
    let level = DiskCacheLevel<String, Data>(path: blocker + "/cache")
    let error = await diskTestFailure(level.set(Data([1]), forKey: "k"))
    guard case .couldNotCreateDirectory(let path, _)? = error as? DiskCacheLevelError else {
      Issue.record("expected couldNotCreateDirectory, got \(String(describing: error))")
      return
    }
    #expect(path == blocker + "/cache")
    await #expect(throws: FetchError.valueNotInCache) { try await level.get("k").value }
    level.clear()
    #expect(try String(contentsOfFile: blocker, encoding: .utf8) == "I am a file")
  }

  @Test("A folder replaced by a file after init makes set fail, without crashing (also as root)")
  func folderReplacedByFile() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let levelPath = folder.child("cache")
    let level = DiskCacheLevel<String, Data>(path: levelPath)
    try await level.set(Data([1]), forKey: "k").value
    try FileManager.default.removeItem(atPath: levelPath)
    try Data("in the way".utf8).write(to: URL(fileURLWithPath: levelPath))
    let error = await diskTestFailure(level.set(Data([2]), forKey: "k"))
    #expect(error is DiskCacheLevelError)
    await #expect(throws: FetchError.valueNotInCache) { try await level.get("k").value }
    #expect(try String(contentsOfFile: levelPath, encoding: .utf8) == "in the way")
  }

  @Test("A folder removed after init is created again by the next set")
  func folderRemovedAfterInit() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let levelPath = folder.child("cache")
    let level = DiskCacheLevel<String, Data>(path: levelPath)
    try await level.set(Data([1]), forKey: "k").value
    try FileManager.default.removeItem(atPath: levelPath)
    try await level.set(Data([2]), forKey: "k").value
    #expect(try await level.get("k").value == Data([2]))
  }

  // MARK: - Clear, memory warnings, temporary files

  @Test("clear removes the level's files and only those")
  func clear() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Data>(path: folder.path)
    let foreign = folder.child("keep-me.txt")
    try Data("mine".utf8).write(to: URL(fileURLWithPath: foreign))
    let inFlight = folder.child(".tmp-\(getpid())-other-level-1")  // another live writer's file
    try Data("partial".utf8).write(to: URL(fileURLWithPath: inFlight))
    for index in 0..<5 {
      try await level.set(Data([UInt8(index)]), forKey: "k\(index)").value
    }
    level.clear()
    await #expect(throws: FetchError.valueNotInCache) { try await level.get("k0").value }
    _ = await level.filesByRecency()  // waits for the clear
    #expect(DiskTestFolder.cacheFiles(in: folder.path).isEmpty)
    #expect(await level.indexedBytes() == 0)
    #expect(FileManager.default.fileExists(atPath: foreign))
    #expect(FileManager.default.fileExists(atPath: inFlight))
    try await level.set(Data([9]), forKey: "after").value
    #expect(try await level.get("after").value == Data([9]))
  }

  @Test("onMemoryWarning keeps the values and the size accounting")
  func memoryWarning() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Data>(path: folder.path)
    try await level.set(Data("v".utf8), forKey: "k").value
    let before = await level.indexedBytes()
    level.onMemoryWarning()
    #expect(try await level.get("k").value == Data("v".utf8))
    #expect(await level.indexedBytes() == before)
  }

  @Test("Temporary files of dead processes are removed when a level opens the folder")
  func abandonedTemporaryFiles() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let dead = folder.child(".tmp-2147483000-abc-1")  // far above any pid_max
    let live = folder.child(".tmp-\(getpid())-abc-1")
    try Data("partial".utf8).write(to: URL(fileURLWithPath: dead))
    try Data("in flight".utf8).write(to: URL(fileURLWithPath: live))
    let level = DiskCacheLevel<String, Data>(path: folder.path)
    _ = await level.filesByRecency()  // waits for the scan
    #expect(!FileManager.default.fileExists(atPath: dead))
    #expect(FileManager.default.fileExists(atPath: live))
    #expect(await level.indexedBytes() == 0)
    // Writes leave no temporary files behind.
    try await level.set(Data([1]), forKey: "k").value
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    let temporary: [String] = names.filter { DiskCacheLevelFiles.isTemporaryFile($0) }
    #expect(temporary == [".tmp-\(getpid())-abc-1"])
  }

  // MARK: - Concurrency and composition

  @Test("Concurrent gets and sets of one key never see a torn value")
  func concurrentGetsAndSets() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Data>(path: folder.path)
    // Value n is n+1 KiB of the byte n: any mix of two values is detectable.
    func value(_ tag: Int) -> Data { Data(repeating: UInt8(tag), count: (tag + 1) * 1_024) }
    try await level.set(value(0), forKey: "shared").value
    let torn = try await withThrowingTaskGroup(of: Int.self) { group in
      for writer in 0..<4 {
        group.addTask {
          for round in 0..<25 {
            try await level.set(value(1 + (writer * 25 + round) % 60), forKey: "shared").value
          }
          return 0
        }
      }
      for _ in 0..<4 {
        group.addTask {
          var bad = 0
          for _ in 0..<50 {
            let data = try await level.get("shared").value
            let tag = Int(data.first ?? 0)
            if data.count != (tag + 1) * 1_024 || data.contains(where: { $0 != UInt8(tag) }) {
              bad += 1
            }
          }
          return bad
        }
      }
      return try await group.reduce(0, +)
    }
    #expect(torn == 0)
    #expect(DiskTestFolder.cacheFiles(in: folder.path).count == 1)
  }

  @Test("Many keys from many tasks: all stored, accounting exact")
  func manyTasks() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Data>(path: folder.path)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for index in 0..<20 {
            let key = "t\(task)-\(index)"
            try await level.set(Data(key.utf8), forKey: key).value
            #expect(try await level.get(key).value == Data(key.utf8))
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(DiskTestFolder.cacheFiles(in: folder.path).count == 160)
    #expect(await level.indexedBytes() == DiskTestFolder.cacheBytes(in: folder.path))
  }

  @Test("DiskCacheLevel() infers its key and Data value inside a composition")
  func inference() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let cache = IdentityLevel<String, Data>() >>> DiskCacheLevel(path: folder.path)
    try await cache.set(Data("composed".utf8), forKey: "k").value
    #expect(try await cache.get("k").value == Data("composed".utf8))

    // The argument-less form type-checks too (not called: it would use the user's cache folder).
    let makeDefault: @Sendable () -> BasicCache<String, Data> = {
      IdentityLevel<String, Data>() >>> DiskCacheLevel()
    }
    _ = makeDefault
    #expect(
      DiskCacheLevel<String, Data>(path: folder.path + "/./sub/..").path
        == folder.url.standardizedFileURL.path)
  }

  // MARK: - Gets against writes and clears in flight

  @Test("A get answers at once, from the pending write, while its key's write is in flight")
  func getDuringWrite() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let gate = DiskWriteGate()
    let level = DiskCacheLevel<String, Data>(
      path: folder.path, capacity: 1_000_000, fileManager: .default, coder: .data,
      hooks: DiskCacheHooks(failWrite: gate.hook))
    try await level.set(Data("old".utf8), forKey: "k").value
    try await level.set(Data("other".utf8), forKey: "other").value

    gate.hold()
    let writing: Future<_> = level.set(Data("new".utf8), forKey: "k")
    // Asked for before the write even started, and while it is held.
    #expect(level.get("k").result?.value == Data("new".utf8))
    #expect(await gate.waitUntilHeld())
    #expect(level.get("k").result?.value == Data("new".utf8))
    // The file still holds the old value, and other keys are read from disk
    // without waiting for the write.
    let name = DiskCacheHooks.sha256Stem(Array("k".utf8)) + DiskCacheLevelFiles.cacheSuffix
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: folder.child(name))).suffix(3) == Data("old".utf8))
    #expect(level.get("other").result?.value == Data("other".utf8))
    #expect(!writing.isCompleted)

    gate.release()
    try await writing.value
    #expect(try await level.get("k").value == Data("new".utf8))
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: folder.child(name))).suffix(3) == Data("new".utf8))
  }

  @Test("Once a write in flight fails, gets read the old value again")
  func getAfterFailedWrite() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let gate = DiskWriteGate()
    let level = DiskCacheLevel<String, Data>(
      path: folder.path, capacity: 1_000_000, fileManager: .default, coder: .data,
      hooks: DiskCacheHooks(failWrite: gate.hook))
    try await level.set(Data("old".utf8), forKey: "k").value
    gate.hold()
    let writing: Future<_> = level.set(Data("new".utf8), forKey: "k")
    #expect(await gate.waitUntilHeld())
    #expect(level.get("k").result?.value == Data("new".utf8))
    gate.release(failingWith: ENOSPC)
    let error = await diskTestFailure(writing)
    guard case .writeFailed(_, ENOSPC, _)? = error as? DiskCacheLevelError else {
      Issue.record("expected writeFailed(ENOSPC), got \(String(describing: error))")
      return
    }
    #expect(level.get("k").result?.value == Data("old".utf8))
  }

  @Test("A pending write of a key hides the file of another key with the same digest")
  func pendingWriteOfCollidingKey() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let gate = DiskWriteGate()
    let level = DiskCacheLevel<String, Data>(
      path: folder.path, capacity: 1_000_000, fileManager: .default, coder: .data,
      hooks: DiskCacheHooks(fileStem: { _ in "c0111de" }, failWrite: gate.hook))
    try await level.set(Data("first".utf8), forKey: "first").value
    gate.hold()
    let writing: Future<_> = level.set(Data("second".utf8), forKey: "second")
    #expect(await gate.waitUntilHeld())
    #expect(level.get("first").result?.error as? FetchError == .valueNotInCache)
    #expect(level.get("second").result?.value == Data("second".utf8))
    gate.release()
    try await writing.value
    #expect(level.get("first").result?.error as? FetchError == .valueNotInCache)
    #expect(level.get("second").result?.value == Data("second".utf8))
  }

  @Test("A get issued after clear() is a miss, even before the clear has run")
  func getDuringClear() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let gate = DiskWriteGate()
    let level = DiskCacheLevel<String, Data>(
      path: folder.path, capacity: 1_000_000, fileManager: .default, coder: .data,
      hooks: DiskCacheHooks(failWrite: gate.hook))
    for index in 0..<3 {
      try await level.set(Data([UInt8(index)]), forKey: "k\(index)").value
    }
    // A held write keeps the clear queued behind it.
    gate.hold()
    let before: Future<_> = level.set(Data([7]), forKey: "before")
    #expect(await gate.waitUntilHeld())
    level.clear()
    #expect(DiskTestFolder.cacheFiles(in: folder.path).count == 3)  // not cleared yet
    for key in ["k0", "k1", "k2", "before"] {
      #expect(level.get(key).result?.error as? FetchError == .valueNotInCache, "\(key)")
    }
    // A value set after the clear is seen at once.
    let after: Future<_> = level.set(Data([9]), forKey: "after")
    #expect(level.get("after").result?.value == Data([9]))

    gate.release()
    try await before.value
    try await after.value
    #expect(level.get("after").result?.value == Data([9]))
    for key in ["k0", "k1", "k2", "before"] {
      #expect(level.get(key).result?.error as? FetchError == .valueNotInCache, "\(key)")
    }
    #expect(DiskTestFolder.cacheFiles(in: folder.path).count == 1)
    #expect(await level.indexedBytes() == diskTestFileSize(key: "after", valueBytes: 1))
  }

  @Test("A set cancelled before it runs is skipped, and gets stop seeing its value at once")
  func cancelledSet() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let gate = DiskWriteGate()
    let level = DiskCacheLevel<String, Data>(
      path: folder.path, capacity: 1_000_000, fileManager: .default, coder: .data,
      hooks: DiskCacheHooks(failWrite: gate.hook))
    gate.hold()
    let written: Future<_> = level.set(Data([1]), forKey: "k")
    #expect(await gate.waitUntilHeld())
    let skipped: Future<_> = level.set(Data([2]), forKey: "k")
    #expect(level.get("k").result?.value == Data([2]))
    skipped.cancel()
    #expect(level.get("k").result?.value == Data([1]))  // the first set is still in flight
    gate.release()
    try await written.value
    await #expect(throws: CancellationError.self) { try await skipped.value }
    _ = await level.filesByRecency()  // the skipped set has had its turn
    #expect(try await level.get("k").value == Data([1]))
  }

  @Test("Gets racing evictions and clears keep the size accounting exact")
  func getsRacingEvictions() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let valueBytes = 16_000
    let capacity = diskTestFileSize(key: "key-00", valueBytes: valueBytes) * 6
    let level = DiskCacheLevel<String, Data>(path: folder.path, capacity: capacity)
    let keys = (0..<12).map { String(format: "key-%02d", $0) }
    // A file read just before an eviction or a clear removes it must not come
    // back into the index: the accounting would then count a missing file.
    for trial in 0..<8 {
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          for (index, key) in keys.enumerated() {
            try await level.set(diskTestBytes(valueBytes, seed: UInt64(index)), forKey: key).value
          }
          if trial.isMultiple(of: 2) { level.clear() }
        }
        for reader in 0..<2 {
          group.addTask {
            for step in 0..<500 {
              let index = (step * 5 + reader * 7) % keys.count
              if let value = level.get(keys[index]).result?.value {
                #expect(value == diskTestBytes(valueBytes, seed: UInt64(index)))
              }
              if step.isMultiple(of: 20) { await Task.yield() }
            }
          }
        }
        try await group.waitForAll()
      }
      let indexed = await level.indexedBytes()  // waits for the clear and the removals
      let onDisk = DiskTestFolder.cacheBytes(in: folder.path)
      #expect(indexed == onDisk, "trial \(trial)")
      #expect(onDisk <= capacity)
    }
  }
}

/// A flag the tests flip to make the disk refuse writes.
private final class RefusalSwitch: Sendable {
  private let flag = Lock(false)
  var isOn: Bool {
    get { flag.withLock { $0 } }
    set { flag.withLock { $0 = newValue } }
  }
}
