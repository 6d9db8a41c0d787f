import Carlos
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program run as a child process whose standard output is collected line by
/// line as it arrives; standard input and standard error are the test's own.
//
// Not Foundation's `Process` with a `Pipe` and a `FileHandle.readabilityHandler`:
// on Linux that handler is a libdispatch read source, and its teardown races
// libdispatch's epoll bookkeeping; under load it crashed the whole test process
// in the manager thread (`_dispatch_event_loop_drain`). No dispatch source or run
// loop takes part here: a thread of its own reads the pipe with blocking reads,
// and the child is reaped with `waitpid`.
final class ChildProcess: Sendable {
  /// Why starting a child failed.
  struct SpawnError: Error, CustomStringConvertible {
    let call: String
    let code: Int32
    var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
  }

  private struct State {
    var buffer: [UInt8] = []
    var lines: [String] = []
    /// Whether the whole output has been read (the pipe reached its end).
    var outputEnded = false
    /// The status `waitpid` reported once the child exited; nil before.
    var exitStatus: Int32?

    /// Adds bytes of output, turning each completed line into a line.
    mutating func append(_ bytes: ArraySlice<UInt8>) {
      buffer.append(contentsOf: bytes)
      while let newline = buffer.firstIndex(of: 0x0A) {
        lines.append(String(decoding: buffer[..<newline], as: UTF8.self))
        buffer.removeSubrange(...newline)
      }
    }
  }

  /// The child's process identifier.
  let identifier: pid_t
  private let state = Lock(State())

  /// Starts `executable` (a path) with `arguments`, in this process's environment.
  init(executable: String, arguments: [String]) throws {
    var output: [Int32] = [0, 0]
    guard pipe(&output) == 0 else { throw SpawnError(call: "pipe", code: errno) }
    let (readEnd, writeEnd) = (output[0], output[1])
    // Neither end leaks into other children; the child's stdout is a duplicate
    // of the write end, which does not inherit the flag.
    _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
    _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)

    #if canImport(Glibc)
    var actions = posix_spawn_file_actions_t()
    #else
    var actions: posix_spawn_file_actions_t?
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, writeEnd, STDOUT_FILENO)

    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var child: pid_t = 0
    let spawned = posix_spawn(&child, executable, &actions, nil, argv, environ)
    close(writeEnd)
    guard spawned == 0 else {
      close(readEnd)
      throw SpawnError(call: "posix_spawn", code: spawned)
    }
    identifier = child

    let thread = Thread { [self] in
      var chunk = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        state.withLock { $0.append(chunk[0..<count]) }
      }
      close(readEnd)
      state.withLock { $0.outputEnded = true }
    }
    thread.start()
  }

  /// The complete lines the child has printed so far.
  var lines: [String] { state.withLock { $0.lines } }

  /// Whether the child has not exited yet. Reaps it once it has.
  var isRunning: Bool { reap() == nil }

  /// Sends `signal` to the child unless it has already been reaped (its
  /// identifier may then belong to another process).
  func send(_ signal: Int32) {
    state.withLock { state in
      if state.exitStatus == nil { _ = kill(identifier, signal) }
    }
  }

  /// Waits, without holding a thread, until the child has exited and all it
  /// printed has been read; returns its `waitpid` status.
  @discardableResult
  func waitForExit() async throws -> Int32 {
    while true {
      if let status = reap(), state.withLock({ $0.outputEnded }) {
        return status
      }
      try await Task.sleep(nanoseconds: 1_000_000)
    }
  }

  /// The child's exit status, reaping it if it has exited; nil while it runs.
  private func reap() -> Int32? {
    state.withLock { state in
      if let status = state.exitStatus { return status }
      var status: Int32 = 0
      switch waitpid(identifier, &status, WNOHANG) {
      case identifier: state.exitStatus = status
      case -1 where errno == ECHILD: state.exitStatus = -1  // not ours to wait for: never "running"
      default: break
      }
      return state.exitStatus
    }
  }
}
