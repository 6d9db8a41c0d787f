#if Postgres
import Foundation
import Glibc
import Synchronization

/// The example executable run as a second process, driven through its standard
/// input and read line by line from its standard output.
final class ExampleProcess: Sendable {
  private let process: Process
  private let input: FileHandle
  private let lines = Lines()

  /// The lines read so far and not yet consumed.
  private final class Lines: Sendable {
    let store = Mutex<[String]>([])
  }

  /// Starts the example with `DATABASE_URL` and the namespace `namespace`.
  init(databaseURL: String, namespace: String) throws {
    guard let executable = Self.executableURL() else {
      throw ServerUnavailable(message: "carlos-postgres-example must be built next to the tests")
    }
    let process = Process()
    process.executableURL = executable
    var environment = ProcessInfo.processInfo.environment
    environment["DATABASE_URL"] = databaseURL
    environment["CARLOS_EXAMPLE_NAMESPACE"] = namespace
    process.environment = environment
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    self.process = process
    self.input = stdin.fileHandleForWriting
    let buffer = Mutex<Data>(Data())
    stdout.fileHandleForReading.readabilityHandler = { [lines] handle in
      let chunk = handle.availableData
      if chunk.isEmpty {
        handle.readabilityHandler = nil  // end of output: stop being called
        return
      }
      let complete = buffer.withLock { buffer -> [String] in
        buffer.append(chunk)
        var found: [String] = []
        while let end = buffer.firstIndex(of: 0x0A) {
          found.append(String(decoding: buffer[buffer.startIndex..<end], as: UTF8.self))
          buffer = Data(buffer[buffer.index(after: end)...])
        }
        return found
      }
      if !complete.isEmpty { lines.store.withLock { $0.append(contentsOf: complete) } }
    }
    try process.run()
  }

  /// Sends one command line.
  func send(_ command: String) {
    input.write(Data((command + "\n").utf8))
  }

  /// Waits (up to `limit`) for the first unread line that `matches`, and consumes it.
  func line(
    within limit: Duration = .seconds(20), where matches: @escaping @Sendable (String) -> Bool
  ) async throws -> String {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
      let found = lines.store.withLock { lines -> String? in
        guard let index = lines.firstIndex(where: matches) else { return nil }
        return lines.remove(at: index)
      }
      if let found { return found }
      if !process.isRunning { break }
      try await Task.sleep(for: .milliseconds(2))
    }
    throw WaitTimedOut(what: "a line from the example (unread: \(lines.store.withLock { $0 }))")
  }

  /// Waits for the first unread line starting with `prefix`, and consumes it.
  func line(startingWith prefix: String, within limit: Duration = .seconds(20)) async throws
    -> String
  {
    try await line(within: limit) { $0.hasPrefix(prefix) }
  }

  /// Sends `command` and returns its reply (the next line that is not an invalidation).
  func ask(_ command: String) async throws -> String {
    send(command)
    return try await line { !$0.hasPrefix("invalidated") && !$0.hasPrefix("ready") }
  }

  /// Ends the process.
  func stop() async {
    send("quit")
    try? input.close()
    let deadline = ContinuousClock.now + .seconds(5)
    while process.isRunning, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(10))
    }
    if process.isRunning { process.terminate() }
  }

  /// Kills the process with SIGKILL (no clean-up of any kind) and waits for it to end.
  func kill() async {
    _ = Glibc.kill(process.processIdentifier, SIGKILL)
    while process.isRunning { try? await Task.sleep(for: .milliseconds(5)) }
  }

  /// The example executable SwiftPM builds next to the test binary.
  static func executableURL() -> URL? {
    var starts: [URL] = []
    if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    {
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
        let candidate = directory.appendingPathComponent("carlos-postgres-example")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory = directory.deletingLastPathComponent()
      }
    }
    return nil
  }
}
#endif
