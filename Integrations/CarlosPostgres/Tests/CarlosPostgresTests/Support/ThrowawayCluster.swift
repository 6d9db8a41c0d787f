#if Postgres
import CarlosPostgres
import Foundation
import PostgresNIO

/// A PostgreSQL cluster of a test's own, made by `Integrations/Scripts/pg-cluster.sh`
/// on an ephemeral port, for the tests that stop and restart a server.
final class ThrowawayCluster: Sendable {
  let directory: String
  let port: Int

  /// Picks a free port and a folder, without starting anything.
  init() async throws {
    directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("carlos-pg-test-\(UUID().uuidString.prefix(8))").path
    let portText = try await Self.script(["port"])
    guard let port = Int(portText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw ServerUnavailable(message: "pg-cluster.sh port printed \(portText)")
    }
    self.port = port
  }

  /// The client configuration of this cluster.
  func configuration() async throws -> PostgresClient.Configuration {
    let user = try await Self.script(["user"]).trimmingCharacters(in: .whitespacesAndNewlines)
    return try DatabaseURL.configuration("postgres://\(user)@127.0.0.1:\(port)/postgres")
  }

  /// Creates the cluster if needed and starts the server.
  func start() async throws { _ = try await Self.script(["start", directory, "\(port)"]) }
  /// Stops the server at once, as a crash would.
  func kill() async throws { _ = try await Self.script(["kill", directory]) }
  /// Stops the server and deletes the folder.
  func remove() async { _ = try? await Self.script(["remove", directory]) }

  /// Runs pg-cluster.sh with `arguments`; its output, or an error with its messages.
  ///
  /// The output goes through files, not pipes: the server the script starts
  /// inherits the descriptors, and a pipe would never reach its end. The wait does
  /// not block a thread.
  static func script(_ arguments: [String]) async throws -> String {
    let script = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Scripts/pg-cluster.sh")
    let folder = FileManager.default.temporaryDirectory
    let outputURL = folder.appendingPathComponent("carlos-pg-script-\(UUID().uuidString).out")
    let errorURL = folder.appendingPathComponent("carlos-pg-script-\(UUID().uuidString).err")
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
    defer {
      try? FileManager.default.removeItem(at: outputURL)
      try? FileManager.default.removeItem(at: errorURL)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [script.path] + arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: outputURL)
    process.standardError = try FileHandle(forWritingTo: errorURL)
    let status = try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Int32, any Error>) in
      process.terminationHandler = { process in
        continuation.resume(returning: process.terminationStatus)
      }
      do { try process.run() } catch {
        process.terminationHandler = nil
        continuation.resume(throwing: error)
      }
    }
    let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
    guard status == 0 else {
      let message = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
      throw ServerUnavailable(
        message: "pg-cluster.sh \(arguments.joined(separator: " ")) failed: \(message)")
    }
    return text
  }
}
#endif
