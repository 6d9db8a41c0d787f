import Carlos
import Dispatch
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a level does with things in its folder that are not its own cache files:
/// FIFOs, symbolic links, directories and files of the wrong size.
@Suite("DiskCacheLevel: hostile files in the folder", .recordingLog)
struct DiskCacheHostileFileTests {
  /// The name of `key`'s cache file.
  private func fileName(_ key: String) -> String {
    DiskCacheHooks.sha256Stem(Array(key.utf8)) + DiskCacheLevelFiles.cacheSuffix
  }

  @Test("A FIFO named like a cache file is a miss at once, and is removed")
  func fifo() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Data>(path: folder.path)
    let fifoPath = folder.child(fileName("k"))
    try #require(mkfifo(fifoPath, 0o644) == 0)
    // Before the fix, `get` blocked for ever in open(2): run it on a thread of its
    // own, and if it has not answered after a long while, open the write end so it ends.
    let result = await onOwnThread(
      within: patience,
      unblock: {
        let writer = open(fifoPath, O_WRONLY | O_NONBLOCK)
        if writer >= 0 { close(writer) }
      },
      { level.get("k").result })
    let answered = try #require(result, "get blocked on the FIFO")
    #expect(answered?.error as? FetchError == .valueNotInCache)
    _ = await level.filesByRecency()  // waits for the removal
    #expect(fileType(fifoPath) == nil)
    try await level.set(Data([1]), forKey: "k").value
    #expect(try await level.get("k").value == Data([1]))
  }

  @Test("A symbolic link to a valid cache file outside the folder is not followed, and is removed")
  func symbolicLink() async throws {
    let folder = DiskTestFolder()
    let outside = DiskTestFolder()
    defer {
      folder.remove()
      outside.remove()
    }
    try await DiskCacheLevel<String, Data>(path: outside.path).set(Data("secret".utf8), forKey: "k")
      .value
    let target = outside.child(fileName("k"))
    let link = folder.child(fileName("k"))
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let level = DiskCacheLevel<String, Data>(path: folder.path)

    await #expect(throws: FetchError.valueNotInCache) { try await level.get("k").value }
    _ = await level.filesByRecency()  // waits for the removal
    #expect(fileType(link) == nil)
    #expect(FileManager.default.contents(atPath: target) != nil)  // the target is left alone
  }

  @Test("A valid file larger than the capacity is a miss, and is removed")
  func largerThanCapacity() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let value = diskTestBytes(200_000, seed: 1)
    try await DiskCacheLevel<String, Data>(path: folder.path, capacity: 1_000_000)
      .set(value, forKey: "big").value
    let small = DiskCacheLevel<String, Data>(path: folder.path, capacity: 100_000)

    await #expect(throws: FetchError.valueNotInCache) { try await small.get("big").value }
    _ = await small.filesByRecency()
    #expect(DiskTestFolder.cacheFiles(in: folder.path).isEmpty)
  }

  #if os(Linux)
  /// File sizes and level capacities for `largerThanHeader`, typed so that the
  /// arguments take no inference (as a literal of tuples with arithmetic they
  /// took 300–470 ms to type-check on a loaded machine).
  static let oversizedFiles: [(fileSize: Int, capacity: UInt64)] = [
    (256 << 20, 1 << 30),  // within the capacity: the header tells
    (2 << 30, 100 << 20),  // beyond it: the size tells
  ]

  @Test(
    "A file larger than its header says is rejected before it is read",
    arguments: oversizedFiles)
  func largerThanHeader(fileSize: Int, capacity: UInt64) async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Data>(path: folder.path, capacity: capacity)
    try await level.set(Data([1, 2, 3]), forKey: "k").value
    // Extend the valid file with a sparse hole: it takes no disk, but reading it would.
    let path = folder.child(fileName("k"))
    try #require(truncate(path, off_t(fileSize)) == 0)

    let before = try bytesReadByProcess()
    await #expect(throws: FetchError.valueNotInCache) { try await level.get("k").value }
    let read = try bytesReadByProcess() - before
    // Other tests run meanwhile and read some (the disk suites several MiB each); the
    // smaller file is still twice this margin.
    #expect(read < 128 * 1024 * 1024, "read \(read) bytes of a \(fileSize)-byte file")
    _ = await level.filesByRecency()
    #expect(fileType(path) == nil)
  }

  /// The bytes this process has read through read(2) and its kin, from /proc/self/io.
  private func bytesReadByProcess() throws -> Int {
    let text = try String(contentsOfFile: "/proc/self/io", encoding: .utf8)
    let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("rchar:") })
    return try #require(Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)))
  }
  #endif

  @Test("A directory in place of a cache file is a miss, and the next set replaces it")
  func directoryInPlaceOfFile() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Data>(path: folder.path)
    let directory = folder.child(fileName("k"))
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    try Data([9]).write(to: URL(fileURLWithPath: directory + "/inside"))

    await #expect(throws: FetchError.valueNotInCache) { try await level.get("k").value }
    try await level.set(Data([1]), forKey: "k").value
    #expect(try await level.get("k").value == Data([1]))
    #expect(fileType(directory) == S_IFREG)
    try await level.set(Data([2]), forKey: "k").value
    #expect(try await level.get("k").value == Data([2]))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [fileName("k")])
  }

  @Test("A directory that appears after a get is replaced by the set")
  func directoryBeforeSet() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let level = DiskCacheLevel<String, Data>(path: folder.path)
    try FileManager.default.createDirectory(
      atPath: folder.child(fileName("k")), withIntermediateDirectories: false)
    try await level.set(Data([3]), forKey: "k").value
    #expect(try await level.get("k").value == Data([3]))
  }
}

/// The type bits (`S_IFREG`, `S_IFDIR`…) of what is at `path`, without
/// following a link; nil when nothing is there.
private func fileType(_ path: String) -> mode_t? {
  var status = stat()
  guard lstat(path, &status) == 0 else { return nil }
  return status.st_mode & S_IFMT
}

/// Runs `body` on a thread of its own (never a cooperative-pool thread) and
/// returns what it returned; when it has not returned after `seconds`, records
/// nothing, calls `unblock` so the thread can end, and returns nil.
private func onOwnThread<T: Sendable>(
  within seconds: TimeInterval,
  unblock: @escaping @Sendable () -> Void,
  _ body: @escaping @Sendable () -> T
) async -> T? {
  await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
    let pending = Guarded<CheckedContinuation<T?, Never>?>(continuation)
    let thread = Thread {
      let value = body()
      pending.withLock { $0.take() }?.resume(returning: value)
    }
    thread.start()
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
      guard let waiting = pending.withLock({ $0.take() }) else { return }
      unblock()
      waiting.resume(returning: nil)
    }
  }
}
