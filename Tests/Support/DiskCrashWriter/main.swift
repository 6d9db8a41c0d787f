// A child process for the disk cache crash test: it stores a stream of large
// values, each derived from its key, and reports on stdout every file write it
// starts ("writing <temporary path>") and every set it completes ("done <key>").
// The test kills it with SIGKILL at a random moment and checks the folder.
//
// Usage: DiskCrashWriter <folder> <key prefix> <count>
import Carlos
import DiskCrashSupport
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]) else {
  FileHandle.standardError.write(
    Data("usage: DiskCrashWriter <folder> <key prefix> <count>\n".utf8))
  exit(64)
}
// Announce each file write as it starts, so the test can kill mid-write.
let hooks = DiskCacheHooks(failWrite: { path in
  FileHandle.standardOutput.write(Data("writing \(path)\n".utf8))
  return nil
})
let level = DiskCacheLevel<String, Data>(
  path: arguments[1], capacity: 64 * 1_048_576, fileManager: .default, coder: .data, hooks: hooks)
for index in 0..<count {
  let key = "\(arguments[2])-\(index)"
  do {
    try await level.set(crashValue(for: key), forKey: key).value
  } catch {
    FileHandle.standardError.write(Data("set \(key) failed: \(error)\n".utf8))
    exit(1)
  }
  FileHandle.standardOutput.write(Data("done \(key)\n".utf8))
}
exit(0)
