import CarlosPostgres
import Foundation
import PostgresNIO

/// A PostgreSQL cluster of a test's own, made by `Integrations/Scripts/pg-cluster.sh`
/// on an ephemeral port, for the tests that stop and restart a server.
final class ThrowawayCluster: Sendable {
  let directory: String
  let port: Int

  /// Picks a free port and a folder, without starting anything.
  init() throws {
    directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("carlos-pg-test-\(UUID().uuidString.prefix(8))").path
    let portText = try Self.script(["port"])
    guard let port = Int(portText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw ServerUnavailable(message: "pg-cluster.sh port printed \(portText)")
    }
    self.port = port
  }

  /// The client configuration of this cluster.
  func configuration() throws -> PostgresClient.Configuration {
    let user = try Self.script(["user"]).trimmingCharacters(in: .whitespacesAndNewlines)
    return try DatabaseURL.configuration("postgres://\(user)@127.0.0.1:\(port)/postgres")
  }

  /// Creates the cluster if needed and starts the server.
  func start() throws { _ = try Self.script(["start", directory, "\(port)"]) }
  /// Stops the server at once, as a crash would.
  func kill() throws { _ = try Self.script(["kill", directory]) }
  /// Stops the server and deletes the folder.
  func remove() { _ = try? Self.script(["remove", directory]) }

  /// Runs pg-cluster.sh with `arguments`; its output, or an error with its messages.
  static func script(_ arguments: [String]) throws -> String {
    let script = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Scripts/pg-cluster.sh")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [script.path] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw ServerUnavailable(
        message: "pg-cluster.sh \(arguments.joined(separator: " ")) failed: \(message)")
    }
    return text
  }
}
