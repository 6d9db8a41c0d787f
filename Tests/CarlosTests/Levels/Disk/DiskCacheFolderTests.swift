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
}
