#if Crypto
import Carlos
import CarlosCrypto
import Crypto
import Foundation
import Synchronization
import Testing

@Suite("EncryptedCacheLevel")
struct EncryptedCacheLevelTests {
  let value = Data("{\"name\":\"Ada\",\"email\":\"ada@example.com\"}".utf8)

  /// A folder of its own, removed when `body` returns.
  func withFolder<T>(_ body: (String) async throws -> T) async throws -> T {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("carlos-crypto-tests-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    return try await body(folder)
  }

  /// Every file under `folder`, read whole.
  func files(in folder: String) throws -> [(path: String, bytes: Data)] {
    let names = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
    return try names.compactMap { name in
      let path = folder + "/" + name
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
        !isFolder.boolValue
      else { return nil }
      return (path, try Data(contentsOf: URL(fileURLWithPath: path)))
    }
  }

  @Test("Under a composition, a value copied up keeps the expiry it has in the encrypted level")
  func copiedUpWithItsExpiry() async throws {
    let clock = ManualClock()
    let encryption = CacheEncryption(
      keys: try CacheKeyRing(current: "k1", key: SymmetricKey(size: .bits256)),
      namespace: "sessions")
    let sealed = MemoryCacheLevel<String, Data>(capacity: 1 << 20, clock: clock)
    let memory = MemoryCacheLevel<String, Data>(capacity: 1 << 20, clock: clock)
    let lower = sealed =>> encryption
    try await lower.set(value, forKey: "s", expiry: .after(.seconds(60)))
    let answer = try await lower.getWithSource("s")
    #expect(answer.value == value)
    #expect(answer.expiresAt == clock.now().addingTimeInterval(60))
    #expect(try await (memory >>> lower).get("s") == value)
    #expect(try await memory.entry(forKey: "s").expiresAt == answer.expiresAt)
  }

  @Test("get(_:orLoad:) on copies of one encrypted level shares one load among concurrent callers")
  func singleFlight() async throws {
    let encryption = CacheEncryption(
      keys: try CacheKeyRing(current: "k1", key: SymmetricKey(size: .bits256)),
      namespace: "profiles")
    let level = MemoryCacheLevel<String, Data>(capacity: 1 << 20) =>> encryption
    let copies = [level, level]
    let loads = Mutex(0)
    let value = self.value
    let callers: [Future<Data>] = (0..<50).map { index in
      copies[index % 2].get("user:7") { _ in
        loads.withLock { $0 += 1 }
        try await Task.sleep(for: .milliseconds(200))
        return value
      }
    }
    for caller in callers { #expect(try await caller.value == value) }
    #expect(loads.withLock { $0 } == 1)
  }

  @Test("On a disk level with `=>>`: a get returns the value, and no file holds it in clear")
  func onDisk() async throws {
    try await withFolder { folder in
      let encryption = CacheEncryption(
        keys: try CacheKeyRing(current: "k1", key: SymmetricKey(size: .bits256)),
        namespace: "profiles")
      let profiles = DiskCacheLevel<String, Data>(path: folder) =>> encryption
      try await profiles.set(value, forKey: "user:7")
      #expect(try await profiles.get("user:7") == value)
      let stored = try files(in: folder)
      #expect(!stored.isEmpty)
      #expect(stored.allSatisfy { $0.bytes.range(of: Data("ada@example.com".utf8)) == nil })
      try await profiles.remove("user:7")
      await #expect(throws: FetchError.valueNotInCache) { try await profiles.get("user:7") }
    }
  }

  @Test("A value changed on disk is a miss, reported as such, and the next level answers")
  func tamperedIsAMiss() async throws {
    try await withFolder { folder in
      let rejections = Mutex<[CacheEncryptionError]>([])
      let encryption = CacheEncryption(
        keys: try CacheKeyRing(current: "k1", key: SymmetricKey(size: .bits256)),
        onRejection: { error in rejections.withLock { $0.append(error) } })
      let disk = DiskCacheLevel<String, Data>(path: folder)
      let sealed = disk =>> encryption
      try await sealed.set(value, forKey: "user:7")
      // Plant the envelope of user 7 under user 8, and garbage under user 9.
      let envelope: Data = try await disk.get("user:7")
      try await disk.set(envelope, forKey: "user:8")
      try await disk.set(Data("not an envelope".utf8), forKey: "user:9")
      await #expect(throws: FetchError.valueNotInCache) { try await sealed.get("user:8") }
      await #expect(throws: FetchError.valueNotInCache) { try await sealed.get("user:9") }
      #expect(rejections.withLock { $0 } == [.authenticationFailed, .notAnEnvelope])

      let origin = BasicFetcher<String, Data>(name: "origin") { _ in Data("fresh".utf8) }
      let pipeline = sealed >>> origin
      #expect(try await pipeline.get("user:8") == Data("fresh".utf8))
      #expect(try await sealed.get("user:8") == Data("fresh".utf8), "stored again, sealed")
    }
  }

  @Test("An expiry reaches the inner level")
  func expiry() async throws {
    let clock = ManualClock()
    let encryption = CacheEncryption(
      keys: try CacheKeyRing(current: "k1", key: SymmetricKey(size: .bits256)))
    let memory = MemoryCacheLevel<String, Data>(clock: clock)
    let sealed = memory =>> encryption
    try await sealed.set(value, forKey: "k", expiry: .after(.seconds(10)))
    #expect(try await sealed.get("k") == value)
    clock.advance(by: .seconds(11))
    await #expect(throws: FetchError.valueNotInCache) { try await sealed.get("k") }
  }
}
#endif
