import Foundation

/// Where the service's handlers read and write users: each of the three setups the
/// load test compares is one.
public protocol UserStore: Sendable {
  /// The JSON of user `id`.
  func user(_ id: String) async throws -> Data
  /// Replaces the JSON of user `id`.
  func update(_ id: String, to json: Data) async throws
  /// Forgets every cached user (the upstream keeps its own).
  func clear() async throws
}

/// What a store cannot do (the endpoint answers 405).
public struct NotSupported: Error, CustomStringConvertible {
  /// The operation, such as "update".
  public var operation: String
  /// Creates the error for `operation`.
  public init(_ operation: String) { self.operation = operation }
  /// What went wrong.
  public var description: String { "this store does not support \(operation)" }
}
