#if HTTPCaching
import Foundation

/// A complete HTTP response: status, header fields and body. `Codable`, so disk
/// levels can store it.
///
/// ```swift
/// let response = try await http.get(HTTPRequestKey(url))
/// if response.isSuccess { print(response.headers["Content-Type"] ?? "?", response.body.count) }
/// ```
public struct HTTPResponse: Hashable, Sendable, Codable {
  /// The status code, such as 200.
  public var status: Int
  /// The header fields, in the order the server sent them.
  public var headers: HTTPHeaderFields
  /// The body (empty for `HEAD` and 304 responses).
  public var body: Data

  /// Creates a response.
  public init(status: Int, headers: HTTPHeaderFields = [:], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// Whether the status is 2xx.
  public var isSuccess: Bool { (200..<300).contains(status) }
}
#endif
