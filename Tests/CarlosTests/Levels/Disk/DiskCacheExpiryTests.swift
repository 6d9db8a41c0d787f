import Carlos
import Foundation
import Testing

/// The file name of `key` in a level's folder.
private func cacheFileName(_ key: String) -> String {
  DiskCacheHooks.sha256Stem(Array(key.utf8)) + DiskCacheLevelFiles.cacheSuffix
}

@Suite("DiskCacheLevel expiry", .recordingLog)
struct DiskCacheExpiryTests {
  private let start = Date(timeIntervalSince1970: 1_700_000_000)

  private func isMiss<T: Sendable>(_ future: Future<T>) async -> Bool {
    await diskTestFailure(future) as? FetchError == .valueNotInCache
  }

  // MARK: - Policies

  @Test("After-write policy: a value is a hit until its deadline, then a miss, and its file goes")
  func afterWrite() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let clock = ManualClock(start: start)
    let level = DiskCacheLevel<String, Data>(
      path: folder.path, expiration: .afterWrite(.seconds(60)), clock: clock)
    try await level.set(Data("v".utf8), forKey: "k").value

    clock.advance(by: .seconds(59))
    #expect(try await level.get("k").value == Data("v".utf8))
    clock.advance(by: .seconds(1))
    #expect(await isMiss(level.get("k")))
    #expect(await level.filesByRecency() == [])
    #expect(DiskTestFolder.cacheFiles(in: folder.path) == [])
    #expect(await level.indexedBytes() == 0)
  }

  @Test("After-access is honoured as after-write: reads do not extend the value")
  func afterAccessIsAfterWrite() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let clock = ManualClock(start: start)
    let level = DiskCacheLevel<String, Data>(
      path: folder.path, expiration: .afterAccess(.seconds(10)), clock: clock)
    try await level.set(Data([1]), forKey: "k").value
    clock.advance(by: .seconds(6))
    #expect(try await level.get("k").value == Data([1]))
    clock.advance(by: .seconds(6))
    #expect(await isMiss(level.get("k")))
  }

  @Test("A per-entry policy decides each value's expiry from its key and value")
  func perEntryPolicy() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let clock = ManualClock(start: start)
    let level = DiskCacheLevel<String, String>(
      path: folder.path,
      expiration: .perEntry { key, _ in key.hasPrefix("short") ? .after(.seconds(5)) : .never },
      clock: clock)
    try await level.set("a", forKey: "short-a").value
    try await level.set("b", forKey: "long-b").value
    clock.advance(by: .seconds(3_600))
    #expect(await isMiss(level.get("short-a")))
    #expect(try await level.get("long-b").value == "b")
  }

  @Test("An expiry given to set overrides the level's policy, both ways")
  func perEntryOverridesPolicy() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let clock = ManualClock(start: start)
    let level = DiskCacheLevel<String, Data>(
      path: folder.path, expiration: .afterWrite(.seconds(10)), clock: clock)
    try await level.set(Data([1]), forKey: "forever", expiry: .never).value
    try await level.set(Data([2]), forKey: "soon", expiry: .at(start.addingTimeInterval(2))).value
    try await level.set(Data([3]), forKey: "policy").value
    clock.advance(by: .seconds(2))
    #expect(await isMiss(level.get("soon")))
    #expect(try await level.get("policy").value == Data([3]))
    clock.advance(by: .seconds(86_400))
    #expect(await isMiss(level.get("policy")))
    #expect(try await level.get("forever").value == Data([1]))
  }

  @Test("A value waiting to be written is a miss once its deadline passes")
  func pendingWriteExpires() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let clock = ManualClock(start: start)
    let gate = DiskWriteGate()
    let level = DiskCacheLevel<String, Data>(
      path: folder.path, capacity: 1_000_000, fileManager: .default, coder: .data,
      hooks: DiskCacheHooks(failWrite: { gate.hook($0) }), clock: clock)
    gate.hold()
    let written: Future<_> = level.set(Data([9]), forKey: "k", expiry: .after(.seconds(5)))
    #expect(await gate.waitUntilHeld())
    let pending = try await level.entry(forKey: "k")
    #expect(pending.value == Data([9]))
    #expect(pending.storedAt == start)
    #expect(pending.expiresAt == start.addingTimeInterval(5))
    clock.advance(by: .seconds(5))
    #expect(await isMiss(level.get("k")))
    gate.release()
    try await written.value
    #expect(await isMiss(level.get("k")))
  }

  // MARK: - Hostile expiries

  @Test(
    "An expiry already past stores nothing, removes the older value, and succeeds",
    arguments: [
      Expiry.after(.zero), .after(.seconds(-5)), .after(.nanoseconds(Int64.min)),
      .at(Date(timeIntervalSince1970: 1_699_999_999)), .at(.distantPast),
      .at(Date(timeIntervalSince1970: -1e300)),
    ])
  func pastExpiry(expiry: Expiry) async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let clock = ManualClock(start: start)
    let level = DiskCacheLevel<String, Data>(path: folder.path, clock: clock)
    try await level.set(Data("old".utf8), forKey: "k").value
    let set: Future<_> = level.set(Data("new".utf8), forKey: "k", expiry: expiry)
    // At once, before the removal ran: the older value is already hidden.
    #expect(await isMiss(level.get("k")))
    try await set.value
    #expect(await isMiss(level.get("k")))
    #expect(DiskTestFolder.cacheFiles(in: folder.path) == [])
    #expect(await level.indexedBytes() == 0)
    // Nothing was stored for a missing key either.
    try await level.set(Data("x".utf8), forKey: "other", expiry: expiry).value
    #expect(DiskTestFolder.cacheFiles(in: folder.path) == [])
  }

  @Test(
    "A positive expiry shorter than a nanosecond stores the value until the next nanosecond",
    arguments: [Duration(secondsComponent: 0, attosecondsComponent: 1), .nanoseconds(1) / 2])
  func subNanosecondExpiry(duration: Duration) async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let clock = ManualClock(start: start)
    let level = DiskCacheLevel<String, Data>(path: folder.path, clock: clock)
    try await level.set(Data("old".utf8), forKey: "k").value
    try await level.set(Data("new".utf8), forKey: "k", expiry: .after(duration)).value
    #expect(try await level.get("k").value == Data("new".utf8))
    #expect(DiskTestFolder.cacheFiles(in: folder.path).count == 1)
    clock.advance(by: .microseconds(1))
    #expect(await isMiss(level.get("k")))
  }

  @Test(
    "Far-future dates and overflowing durations saturate: stored, never expiring",
    arguments: [
      Expiry.at(.distantFuture), .after(.seconds(Int64.max)), .after(.nanoseconds(Int64.max)),
      .at(Date(timeIntervalSince1970: 1e300)),
    ])
  func farFuture(expiry: Expiry) async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let clock = ManualClock(start: start)
    let level = DiskCacheLevel<String, Data>(path: folder.path, clock: clock)
    try await level.set(Data([1]), forKey: "k", expiry: expiry).value
    clock.advance(by: .seconds(200 * 365 * 86_400))
    #expect(try await level.get("k").value == Data([1]))
    try await level.removeExpired().value
    #expect(try await level.get("k").value == Data([1]))
  }

  @Test("A far but representable deadline is kept exactly")
  func farRepresentable() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let clock = ManualClock(start: start)
    let level = DiskCacheLevel<String, Data>(path: folder.path, clock: clock)
    let deadline = Date(timeIntervalSince1970: 4_000_000_000)
    try await level.set(Data([1]), forKey: "k", expiry: .at(deadline)).value
    let entry = try await level.entry(forKey: "k")
    #expect(entry.expiresAt == deadline)
    clock.set(to: deadline)
    #expect(await isMiss(level.get("k")))
  }

  @Test("A clock set back cannot bring an expired value back")
  func clockJumpsBack() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let clock = ManualClock(start: start)
    let level = DiskCacheLevel<String, Data>(
      path: folder.path, expiration: .afterWrite(.seconds(10)), clock: clock)
    try await level.set(Data([1]), forKey: "a").value
    try await level.set(Data([2]), forKey: "b").value
    clock.advance(by: .seconds(20))
    #expect(await isMiss(level.get("a")))  // the level has seen start + 20 s
    clock.set(to: start)
    // "b" is still on disk, but its deadline has passed for the level.
    #expect(DiskTestFolder.cacheFiles(in: folder.path).contains(cacheFileName("b")))
    #expect(await isMiss(level.get("b")))
    #expect(await isMiss(level.entry(forKey: "b")))
    // A value stored now counts from the latest time seen, not from the clock.
    try await level.set(Data([3]), forKey: "c").value
    let entry = try await level.entry(forKey: "c")
    #expect(entry.storedAt == start.addingTimeInterval(20))
    #expect(entry.expiresAt == start.addingTimeInterval(30))
  }

  // MARK: - Removal of expired files

  @Test("removeExpired removes exactly the expired files, including those of other levels")
  func removeExpired() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let clock = ManualClock(start: start)
    let writer = DiskCacheLevel<String, Data>(path: folder.path, clock: clock)
    try await writer.set(Data([1]), forKey: "expired", expiry: .after(.seconds(5))).value
    try await writer.set(Data([2]), forKey: "later", expiry: .after(.seconds(50))).value
    try await writer.set(Data([3]), forKey: "never").value
    try Data(diskTestVersion1File(key: "v1", value: [4])).write(
      to: URL(fileURLWithPath: folder.child(cacheFileName("v1"))))
    try Data("not ours".utf8).write(to: URL(fileURLWithPath: folder.child("notes.txt")))
    let other = DiskCacheLevel<String, Data>(path: folder.path, clock: clock)
    // The other level opened before the time passed: its scan kept every file.
    #expect(await other.filesByRecency().count == 4)
    clock.advance(by: .seconds(5))

    try await other.removeExpired().value

    #expect(!DiskTestFolder.cacheFiles(in: folder.path).contains(cacheFileName("expired")))
    #expect(DiskTestFolder.cacheFiles(in: folder.path).count == 3)
    #expect(FileManager.default.fileExists(atPath: folder.child("notes.txt")))
    #expect(await other.filesByRecency().count == 3)
    #expect(try await other.get("later").value == Data([2]))
    #expect(try await other.get("never").value == Data([3]))
    #expect(try await other.get("v1").value == Data([4]))
    #expect(await isMiss(writer.get("expired")))
  }

  @Test("A level opening a folder removes the expired files it finds")
  func openRemovesExpired() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let clock = ManualClock(start: start)
    do {
      let first = DiskCacheLevel<String, Data>(
        path: folder.path, expiration: .afterWrite(.seconds(10)), clock: clock)
      try await first.set(Data([1]), forKey: "short").value
      try await first.set(Data([2]), forKey: "long", expiry: .after(.seconds(100))).value
    }
    clock.advance(by: .seconds(10))
    let second = DiskCacheLevel<String, Data>(path: folder.path, clock: clock)
    #expect(await second.filesByRecency() == [cacheFileName("long")])
    #expect(DiskTestFolder.cacheFiles(in: folder.path) == [cacheFileName("long")])
    #expect(await second.indexedBytes() == diskTestFileSize(key: "long", valueBytes: 1))
    // The expiry written by the first level still holds in the second.
    #expect(try await second.get("long").value == Data([2]))
    clock.advance(by: .seconds(90))
    #expect(await isMiss(second.get("long")))
  }

  @Test("Over capacity, expired files are evicted before the least recently used")
  func evictionPrefersExpired() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let clock = ManualClock(start: start)
    let fileSize = diskTestFileSize(key: "a", valueBytes: 100)
    let level = DiskCacheLevel<String, Data>(
      path: folder.path, capacity: fileSize * 3, clock: clock)
    try await level.set(diskTestBytes(100, seed: 1), forKey: "a").value
    try await level.set(diskTestBytes(100, seed: 2), forKey: "b").value
    // The most recent file, but it expires.
    try await level.set(diskTestBytes(100, seed: 3), forKey: "c", expiry: .after(.seconds(1))).value
    clock.advance(by: .seconds(1))

    try await level.set(diskTestBytes(100, seed: 4), forKey: "d").value

    #expect(try await level.get("a").value == diskTestBytes(100, seed: 1))
    #expect(try await level.get("b").value == diskTestBytes(100, seed: 2))
    #expect(try await level.get("d").value == diskTestBytes(100, seed: 4))
    #expect(!DiskTestFolder.cacheFiles(in: folder.path).contains(cacheFileName("c")))
    #expect(await level.indexedBytes() == fileSize * 3)
  }

  // MARK: - Entries and the version-1 format

  @Test("entry(forKey:) answers the value with when it was stored and when it expires")
  func entryMetadata() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let clock = ManualClock(start: start)
    let level = DiskCacheLevel<String, String>(
      path: folder.path, expiration: .afterWrite(.seconds(30)), clock: clock)
    try await level.set("v", forKey: "k").value
    try await level.set("w", forKey: "forever", expiry: .never).value
    clock.advance(by: .seconds(10))

    let entry = try await level.entry(forKey: "k")
    #expect(entry.value == "v")
    #expect(entry.storedAt == start)
    #expect(entry.expiresAt == start.addingTimeInterval(30))
    let forever = try await level.entry(forKey: "forever")
    #expect(forever.value == "w")
    #expect(forever.expiresAt == nil)
    #expect(await isMiss(level.entry(forKey: "missing")))
    // A new level reads the same times from the file.
    let reopened = DiskCacheLevel<String, String>(path: folder.path, clock: clock)
    let again = try await reopened.entry(forKey: "k")
    #expect(again.storedAt == start && again.expiresAt == start.addingTimeInterval(30))
  }

  @Test("A version-1 file over 64 KiB (read header first) reads too")
  func largeLegacyFile() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let value = [UInt8](repeating: 7, count: 70_000)
    try Data(diskTestVersion1File(key: "big", value: value)).write(
      to: URL(fileURLWithPath: folder.child(cacheFileName("big"))))
    let level = DiskCacheLevel<String, Data>(path: folder.path, clock: ManualClock(start: start))
    #expect(try await level.get("big").value == Data(value))
    #expect(DiskTestFolder.cacheFiles(in: folder.path).count == 1)
  }

  @Test("A version-1 file reads as never expiring, stored at its modification time")
  func legacyFile() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let path = folder.child(cacheFileName("legacy"))
    try Data(diskTestVersion1File(key: "legacy", value: [1, 2, 3])).write(
      to: URL(fileURLWithPath: path))
    let modified = Date(timeIntervalSince1970: 1_600_000_000)
    try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
    let clock = ManualClock(start: start)
    let level = DiskCacheLevel<String, Data>(
      path: folder.path, expiration: .afterWrite(.seconds(1)), clock: clock)
    clock.advance(by: .seconds(100 * 365 * 86_400))

    let entry = try await level.entry(forKey: "legacy")
    #expect(entry.value == Data([1, 2, 3]))
    #expect(entry.expiresAt == nil)
    #expect(abs(entry.storedAt.timeIntervalSince(modified)) < 1)
    try await level.removeExpired().value
    #expect(try await level.get("legacy").value == Data([1, 2, 3]))
    #expect(await level.indexedBytes() == UInt64(DiskCacheFileFormat.version1HeaderSize + 6 + 3))
    // Overwriting it writes the current version, with the level's policy.
    try await level.set(Data([4]), forKey: "legacy").value
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(bytes[4] == 2)
    // (Two seconds: a clock a century ahead reads with sub-microsecond rounding.)
    clock.advance(by: .seconds(2))
    #expect(await isMiss(level.get("legacy")))
  }
}
