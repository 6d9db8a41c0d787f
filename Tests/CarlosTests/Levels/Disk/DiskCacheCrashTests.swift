import Carlos
import DiskCrashSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the DiskCrashWriter executable SwiftPM builds next to the test binary.
private func crashWriterURL() -> URL? {
  var starts: [URL] = []
  if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
    starts.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
  }
  starts.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
  starts.append(Bundle.main.bundleURL)
  for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
    starts.append(bundle.bundleURL.deletingLastPathComponent())
  }
  for start in starts {
    var directory = start
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent("DiskCrashWriter")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
  }
  return nil
}

@Suite("DiskCacheLevel crash safety")
struct DiskCacheCrashTests {
  @Test(
    "A writer killed with SIGKILL mid-stream never leaves a wrong or torn value",
    // A guard against a hang only: each of the 20 rounds may wait up to 30 s for its
    // writer on a loaded machine or under ThreadSanitizer.
    .timeLimit(.minutes(12)))
  func sigkillMidStream() async throws {
    let writer = try #require(crashWriterURL(), "DiskCrashWriter must be built next to the tests")
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let cachePath = folder.child("cache")
    var completed: [String] = []
    var killedRounds = 0
    let rounds = 20

    for round in 0..<rounds {
      let child = try ChildProcess(
        executable: writer.path, arguments: [cachePath, "round\(round)", "1000"])

      // Let it finish at least one value, then kill it: in even rounds at a
      // random moment, in odd rounds just after it starts writing a file (about
      // half of those kills land between the temporary file's creation and its rename).
      let deadline = Date().addingTimeInterval(30)
      let started: @Sendable ([String]) -> Bool = { lines in
        guard let firstDone = lines.firstIndex(where: { $0.hasPrefix("done ") }) else {
          return false
        }
        return round.isMultiple(of: 2) || lines[firstDone...].contains { $0.hasPrefix("writing ") }
      }
      // Sleep without blocking a thread of the shared pool: other tests run meanwhile.
      while !started(child.lines), child.isRunning, Date() < deadline {
        try await Task.sleep(nanoseconds: 500_000)
      }
      let pause =
        round.isMultiple(of: 2) ? UInt64.random(in: 0..<40_000) : UInt64.random(in: 0..<3_000)
      try await Task.sleep(nanoseconds: pause * 1_000)
      if child.isRunning {
        child.send(SIGKILL)
        killedRounds += 1
      }
      try await child.waitForExit()
      let done = child.lines.compactMap { line in
        line.hasPrefix("done ") ? String(line.dropFirst(5)) : nil
      }
      #expect(!done.isEmpty, "round \(round): the writer completed nothing before the deadline")
      completed += done
    }
    #expect(killedRounds == rounds)

    // Every file in the folder is a complete, correct value for the key it names.
    let files = DiskTestFolder.cacheFiles(in: cachePath)
    #expect(!files.isEmpty)
    for name in files {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: cachePath + "/" + name))
      let checked: Bool = bytes.withUnsafeBytes { raw in
        guard case .success(let entry) = DiskCacheFileFormat.inspect(raw) else { return false }
        let key = String(decoding: raw[entry.key], as: UTF8.self)
        return Data(raw[entry.value]) == crashValue(for: key)
          && name == DiskCacheHooks.sha256Stem(Array(key.utf8)) + DiskCacheLevelFiles.cacheSuffix
      }
      #expect(checked, "\(name) is torn or wrong")
    }

    // Through the level: every completed key that is still stored reads back
    // correctly, and the newest one is stored.
    let level = DiskCacheLevel<String, Data>(path: cachePath, capacity: 64 * 1_048_576)
    var found = 0
    for key in completed {
      if let value = try? await level.get(key).value {
        #expect(value == crashValue(for: key), "\(key) read back wrong")
        found += 1
      }
    }
    #expect(found > 0)
    if let newest = completed.last {
      #expect(try await level.get(newest).value == crashValue(for: newest))
    }
    // A writer killed between its rename and its evictions can leave the folder
    // over capacity; a level opening the folder trims it.
    _ = await level.filesByRecency()
    #expect(DiskTestFolder.cacheBytes(in: cachePath) <= 64 * 1_048_576)
    #expect(await level.indexedBytes() == DiskTestFolder.cacheBytes(in: cachePath))
    // The temporary files of the killed writers are gone once a level opens the folder.
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: cachePath)
      .filter { DiskCacheLevelFiles.isTemporaryFile($0) }
    #expect(leftovers.isEmpty)
  }
}
