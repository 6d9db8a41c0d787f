import Foundation
import Testing

@testable import Carlos

@Suite("DiskCacheLevel folders and permissions", .recordingLog)
struct DiskCacheFolderTests {
  /// The permission bits of what is at `path`.
  private func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try #require(attributes[.posixPermissions] as? NSNumber).intValue & 0o777
  }

  @Test("With no path, the folder belongs to the running program")
  func defaultFolderIsThePrograms() {
    let level = DiskCacheLevel<String, Data>()
    let program = DiskCacheLevelFiles.folderName(
      forProgram: ProcessInfo.processInfo.processName)
    #expect(level.path.hasSuffix("/\(program)/carlos"))
    #expect(level.path == defaultDiskCachePath())
  }

  @Test("CacheProvider's default folders are in this program's own folder too")
  func providerFoldersAreThePrograms() {
    let programFolder = URL(fileURLWithPath: defaultDiskCachePath()).deletingLastPathComponent()
    #expect(
      programFolder.lastPathComponent
        == DiskCacheLevelFiles.folderName(forProgram: ProcessInfo.processInfo.processName))
    #expect(
      CacheProvider.defaultDataFolder
        == programFolder.appendingPathComponent("com.carlos.data").path)
    #expect(
      CacheProvider.defaultJSONFolder
        == programFolder.appendingPathComponent("com.carlos.json").path)
  }

  @Test("Two programs' default folders never share a value")
  func programsDoNotShare() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let first = DiskCacheLevel<String, Data>(
      path: defaultDiskCachePath(in: folder.path, program: "first-program"))
    let second = DiskCacheLevel<String, Data>(
      path: defaultDiskCachePath(in: folder.path, program: "second-program"))
    try await first.set(Data("first's".utf8), forKey: "user:7").value
    #expect(first.path != second.path)
    let failure = await diskTestFailure(second.get("user:7"))
    #expect(failure as? FetchError == .valueNotInCache)
  }

  @Test(
    "A hostile program name is one plain folder name",
    arguments: [
      ("../../etc", "_.._etc"), ("", "program"), ("...", "program"), (".hidden", "hidden"),
      ("a/b", "a_b"), ("café ☕", "caf___"), ("My-App_2.1", "My-App_2.1"),
    ])
  func hostileProgramNames(program: String, expected: String) {
    #expect(DiskCacheLevelFiles.folderName(forProgram: program) == expected)
    let path = defaultDiskCachePath(in: "/base", program: program)
    #expect(path == "/base/\(expected)/carlos")
  }

  @Test("A program name is cut to 100 characters")
  func longProgramName() {
    let name = DiskCacheLevelFiles.folderName(forProgram: String(repeating: "x", count: 5_000))
    #expect(name == String(repeating: "x", count: 100))
  }

  @Test("Folders the level creates are 0700 and its files 0600")
  func createdFolderIsPrivate() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let path = defaultDiskCachePath(in: folder.path, program: "tool")
    let level = DiskCacheLevel<String, Data>(path: path)
    try await level.set(Data("secret".utf8), forKey: "token").value
    #expect(try mode(folder.child("tool")) == 0o700)
    #expect(try mode(path) == 0o700)
    let files = DiskTestFolder.cacheFiles(in: path)
    #expect(files.count == 1)
    for file in files { #expect(try mode(path + "/" + file) == 0o600) }
  }

  @Test("A folder that exists keeps its mode; the files are still 0600")
  func existingFolderKeepsItsMode() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let shared = folder.child("shared")
    try FileManager.default.createDirectory(
      atPath: shared, withIntermediateDirectories: false,
      attributes: [.posixPermissions: 0o750])
    let level = DiskCacheLevel<String, Data>(path: shared)
    try await level.set(Data("value".utf8), forKey: "key").value
    try await level.set(Data("newer".utf8), forKey: "key").value
    #expect(try mode(shared) == 0o750)
    let files = DiskTestFolder.cacheFiles(in: shared)
    #expect(files.count == 1)
    for file in files { #expect(try mode(shared + "/" + file) == 0o600) }
  }

  @Test(
    "A folder that its group or everyone may write is refused, naming the path and mode",
    arguments: [0o777, 0o770, 0o722, 0o1777])
  func writableByOthersIsRefused(permissions: Int) async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let shared = folder.child("shared")
    try FileManager.default.createDirectory(
      atPath: shared, withIntermediateDirectories: false,
      attributes: [.posixPermissions: permissions])
    let level = DiskCacheLevel<String, Data>(path: shared)
    let refusal = DiskCacheLevelError.unsafeFolder(
      path: shared, mode: UInt32(permissions), owner: UInt32(geteuid()))
    #expect(
      await diskTestFailure(level.set(Data("v".utf8), forKey: "k")) as? DiskCacheLevelError
        == refusal)
    #expect(await diskTestFailure(level.get("k")) as? DiskCacheLevelError == refusal)
    #expect(await diskTestFailure(level.remove("k")) as? DiskCacheLevelError == refusal)
    #expect(
      await diskTestFailure(level.insertIfAbsent(Data(), forKey: "k")) as? DiskCacheLevelError
        == refusal)
    level.clear()
    #expect(try FileManager.default.contentsOfDirectory(atPath: shared).isEmpty)
    #expect(
      refusal.description.contains(shared)
        && refusal.description.contains("mode \(String(permissions, radix: 8))"))

    let allowed = DiskCacheLevel<String, Data>(path: shared, allowSharedFolder: true)
    try await allowed.set(Data("v".utf8), forKey: "k").value
    #expect(try await allowed.get("k").value == Data("v".utf8))
  }

  @Test(
    "A folder another user owns is refused, even 0700",
    .enabled(if: geteuid() == 0, "only root can give a folder to another user"))
  func ownedByAnotherUserIsRefused() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let theirs = folder.child("theirs")
    try FileManager.default.createDirectory(
      atPath: theirs, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    #expect(chown(theirs, 65534, 65534) == 0)
    let level = DiskCacheLevel<String, Data>(path: theirs)
    let failure = await diskTestFailure(level.set(Data("v".utf8), forKey: "k"))
    #expect(
      failure as? DiskCacheLevelError == .unsafeFolder(path: theirs, mode: 0o700, owner: 65534))
  }

  @Test(
    "Another user (nobody) can neither read a value nor plant one in a default or a 0700 folder",
    .enabled(if: geteuid() == 0, "only root can run a child as another user"))
  func anotherUserCanNeitherReadNorPlant() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    for path in [
      defaultDiskCachePath(in: folder.path, program: "private-program"), folder.child("given"),
    ] {
      if path.hasSuffix("given") {
        try FileManager.default.createDirectory(
          atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
      }
      let level = DiskCacheLevel<String, Data>(path: path)
      try await level.set(Data("secret".utf8), forKey: "token").value
      let file = path + "/" + (try #require(DiskTestFolder.cacheFiles(in: path).first))
      // As nobody: read the value's file, list the folder, write a file of our own in it.
      for command in ["cat '\(file)'", "ls '\(path)'", "echo planted > '\(path)/0123.cache'"] {
        let child = try ChildProcess(
          executable: "/usr/bin/setpriv",
          arguments: [
            "--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c",
            command + " 2>/dev/null",
          ])
        let status = try await child.waitForExit()
        #expect(status != 0, "as nobody: \(command) succeeded")
        #expect(child.lines.isEmpty, "as nobody: \(command) printed \(child.lines)")
      }
      #expect(!FileManager.default.fileExists(atPath: path + "/0123.cache"))
      #expect(try await level.get("token").value == Data("secret".utf8))
    }
  }
}
