import Foundation
import Testing

@testable import Carlos

@Suite("UserDefaultsCacheLevel")
struct UserDefaultsCacheLevelTests {
  struct Profile: Codable, Equatable, Sendable {
    let name: String
    let age: Int
  }

  /// A unique suite name, and a clean-up that removes the suite and its file.
  private func makeSuiteName() -> String {
    "carlos.tests.\(UUID().uuidString)"
  }

  private func removeSuite(_ name: String) {
    if let defaults = UserDefaults(suiteName: name) {
      defaults.removePersistentDomain(forName: name)
      // Write the now empty suite before deleting its file, so no later write brings the file back.
      defaults.synchronize()
    }
    for file in suiteFiles(name) { try? FileManager.default.removeItem(atPath: file) }
  }

  /// Where Foundation on Linux keeps a suite on disk.
  private func suiteFiles(_ name: String) -> [String] {
    var folders = [NSHomeDirectory() + "/.config"]
    if let xdg = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] { folders.append(xdg) }
    return folders.map { "\($0)/\(name).plist" }
  }

  @Test("a value that was set is returned by get")
  func setThenGet() async throws {
    let name = makeSuiteName()
    defer { removeSuite(name) }
    let level = UserDefaultsCacheLevel<String, Profile>(name: name)

    try await level.set(Profile(name: "Ada", age: 36), forKey: "ada").value

    #expect(try await level.get("ada").value == Profile(name: "Ada", age: 36))
  }

  @Test("canonically equivalent spellings of a key are one key", arguments: [false, true])
  func canonicalKeys(composedFirst: Bool) async throws {
    let name = makeSuiteName()
    defer { removeSuite(name) }
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    let (setKey, getKey) = composedFirst ? (composed, decomposed) : (decomposed, composed)
    try await UserDefaultsCacheLevel<String, Int>(name: name).set(1, forKey: setKey).value

    #expect(try await UserDefaultsCacheLevel<String, Int>(name: name).get(getKey).value == 1)
  }

  @Test("a missing key fails with valueNotInCache")
  func missingKeyFails() throws {
    let name = makeSuiteName()
    defer { removeSuite(name) }
    let level = UserDefaultsCacheLevel<String, Int>(name: name)

    let result = try #require(level.get("nothing").result)

    #expect(result.error as? FetchError == .valueNotInCache)
  }

  @Test("data values come back byte for byte")
  func dataRoundTrips() async throws {
    let name = makeSuiteName()
    defer { removeSuite(name) }
    let level = UserDefaultsCacheLevel<URL, Data>(name: name)
    let key = try #require(URL(string: "https://example.com/a?b=c"))
    let bytes = Data([0, 1, 2, 255, 254, 10, 13])

    try await level.set(bytes, forKey: key).value

    #expect(try await level.get(key).value == bytes)
  }

  @Test("a stored value of another type fails with invalidCachedData")
  func undecodableValueFails() async throws {
    let name = makeSuiteName()
    defer { removeSuite(name) }
    try await UserDefaultsCacheLevel<String, Int>(name: name).set(42, forKey: "answer").value
    let profiles = UserDefaultsCacheLevel<String, Profile>(name: name)

    let result = try #require(profiles.get("answer").result)

    #expect(result.error as? FetchError == .invalidCachedData)
  }

  @Test("a new level on the same suite sees the values, and the suite is written to disk")
  func valuesPersist() async throws {
    let name = makeSuiteName()
    defer { removeSuite(name) }
    try await UserDefaultsCacheLevel<String, String>(name: name).set("kept", forKey: "note").value

    let reopened = UserDefaultsCacheLevel<String, String>(name: name)

    #expect(try await reopened.get("note").value == "kept")
    #if os(Linux)
    #expect(suiteFiles(name).contains { FileManager.default.fileExists(atPath: $0) })
    #endif
  }

  @Test("a later set replaces the value")
  func setReplaces() async throws {
    let name = makeSuiteName()
    defer { removeSuite(name) }
    let level = UserDefaultsCacheLevel<String, Int>(name: name)

    try await level.set(1, forKey: "n").value
    try await level.set(2, forKey: "n").value

    #expect(try await level.get("n").value == 2)
  }

  @Test("clear wipes this suite only: other suites and the standard defaults keep their values")
  func clearWipesOnlyItsSuite() async throws {
    let name = makeSuiteName()
    let otherName = makeSuiteName()
    let standardKey = "carlos.tests.standard.\(UUID().uuidString)"
    defer {
      removeSuite(name)
      removeSuite(otherName)
      UserDefaults.standard.removeObject(forKey: standardKey)
    }
    let level = UserDefaultsCacheLevel<String, Int>(name: name)
    let other = UserDefaultsCacheLevel<String, Int>(name: otherName)
    try await level.set(1, forKey: "a").value
    try await level.set(2, forKey: "b").value
    try await other.set(3, forKey: "a").value
    UserDefaults.standard.set("still here", forKey: standardKey)
    let foreign = try #require(UserDefaults(suiteName: name))
    foreign.set("not Carlos's", forKey: "foreign")

    level.clear()

    #expect(level.get("a").result?.error as? FetchError == .valueNotInCache)
    #expect(level.get("b").result?.error as? FetchError == .valueNotInCache)
    #expect(try await other.get("a").value == 3)
    #expect(UserDefaults.standard.string(forKey: standardKey) == "still here")
    #expect(UserDefaults(suiteName: name)?.string(forKey: "foreign") == "not Carlos's")
  }

  @Test(
    "an unusable suite name fails every operation with a clear error",
    arguments: ["", "NSGlobalDomain", "../escape", "a/b"])
  func invalidSuiteNameFails(name: String) throws {
    let level = UserDefaultsCacheLevel<String, Int>(name: name)

    let setResult = try #require(level.set(1, forKey: "k").result)
    let getResult = try #require(level.get("k").result)
    level.clear()

    #expect(setResult.error as? UserDefaultsCacheLevelError == .invalidSuiteName(name))
    #expect(getResult.error as? UserDefaultsCacheLevelError == .invalidSuiteName(name))
  }

  @Test("many tasks setting and getting at once see consistent values")
  func concurrentAccess() async throws {
    let name = makeSuiteName()
    defer { removeSuite(name) }
    let level = UserDefaultsCacheLevel<String, Int>(name: name)

    await withTaskGroup(of: Void.self) { group in
      for index in 0..<50 {
        group.addTask {
          level.set(index, forKey: "key\(index % 10)")
          _ = level.get("key\(index % 10)")
        }
      }
    }

    for slot in 0..<10 {
      let value = try await level.get("key\(slot)").value
      #expect(value % 10 == slot)
    }
  }

  #if os(Linux)
  @Test("the suite's file is readable and writable by its owner only")
  func suiteFileIsPrivate() async throws {
    let name = makeSuiteName()
    defer { removeSuite(name) }
    try await UserDefaultsCacheLevel<String, String>(name: name).set("v", forKey: "k").value
    let file = try #require(suiteFiles(name).first { FileManager.default.fileExists(atPath: $0) })
    let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  @Test("a suite file other users may write is refused, unless allowSharedFolder is set")
  func sharedSuiteFileIsRefused() async throws {
    let name = makeSuiteName()
    defer { removeSuite(name) }
    try await UserDefaultsCacheLevel<String, String>(name: name).set("v", forKey: "k").value
    let file = try #require(suiteFiles(name).first { FileManager.default.fileExists(atPath: $0) })
    try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: file)

    let refused = UserDefaultsCacheLevel<String, String>(name: name)
    let refusal = UserDefaultsCacheLevelError.unsafeFolder(
      path: file, mode: 0o666, owner: UInt32(geteuid()))
    await #expect(throws: refusal) { try await refused.get("k").value }
    await #expect(throws: refusal) { try await refused.set("planted", forKey: "k").value }
    #expect(refusal.description.contains("allowSharedFolder: true"))

    let allowed = UserDefaultsCacheLevel<String, String>(name: name, allowSharedFolder: true)
    #expect(try await allowed.get("k").value == "v")
  }

  @Test("a config folder other users may write, or another user owns, is refused")
  func sharedConfigFolderIsRefused() throws {
    let folder = FileManager.default.temporaryDirectory.path + "/carlos-config-\(UUID())"
    try FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let check = { (environment: [String: String], home: String) in
      UserDefaultsCacheLevel<String, String>.unsafeSuitePath(
        "suite", environment: environment, home: home)
    }
    #expect(check(["XDG_CONFIG_HOME": folder], "/nonexistent") == nil)
    for mode in [0o777, 0o770, 0o1777] {
      try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: folder)
      let refusal = UserDefaultsCacheLevelError.unsafeFolder(
        path: folder, mode: UInt32(mode), owner: UInt32(geteuid()))
      #expect(check(["XDG_CONFIG_HOME": folder], "/nonexistent") == refusal)
      // Without XDG_CONFIG_HOME (or with a relative one), the folder is ~/.config.
      try FileManager.default.createDirectory(
        atPath: folder + "/home/.config", withIntermediateDirectories: true,
        attributes: [.posixPermissions: mode])
      try FileManager.default.setAttributes(
        [.posixPermissions: mode], ofItemAtPath: folder + "/home/.config")
      #expect(
        check(["XDG_CONFIG_HOME": "relative"], folder + "/home")
          == .unsafeFolder(
            path: folder + "/home/.config", mode: UInt32(mode), owner: UInt32(geteuid())))
    }
    if geteuid() == 0 {
      try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder)
      #expect(chown(folder, 65534, 65534) == 0)
      #expect(
        check(["XDG_CONFIG_HOME": folder], "/nonexistent")
          == .unsafeFolder(path: folder, mode: 0o700, owner: 65534))
    }
  }
  #endif
}
