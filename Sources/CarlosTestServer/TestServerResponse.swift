import Foundation

/// What a ``TestServer`` answers to one request: the status, headers and body,
/// and how slowly to send them.
public struct TestServerResponse: Sendable {
  /// The HTTP status code, for example 200 or 404.
  public var status: Int
  /// Extra header fields. `Content-Length`, `Transfer-Encoding` and `Connection`
  /// are written by the server itself.
  public var headers: [String: String]
  /// The body bytes.
  public var body: Data
  /// How long the server waits after reading the request before it sends anything.
  public var delay: TimeInterval
  /// When set, the body is sent with chunked transfer encoding (no
  /// `Content-Length`), in pieces of this many bytes.
  public var chunkSize: Int?
  /// How long the server waits after each chunk when ``chunkSize`` is set.
  public var chunkDelay: TimeInterval

  /// Creates a response.
  ///
  /// - Parameters:
  ///   - status: the HTTP status code.
  ///   - body: the body bytes.
  ///   - headers: extra header fields.
  ///   - delay: seconds to wait before answering.
  ///   - chunkSize: when set, send the body chunked in pieces of this size.
  ///   - chunkDelay: seconds to wait after each chunk.
  public init(
    status: Int = 200,
    body: Data = Data(),
    headers: [String: String] = [:],
    delay: TimeInterval = 0,
    chunkSize: Int? = nil,
    chunkDelay: TimeInterval = 0
  ) {
    self.status = status
    self.body = body
    self.headers = headers
    self.delay = delay
    self.chunkSize = chunkSize
    self.chunkDelay = chunkDelay
  }

  /// A `200 OK` response whose body is `text` in UTF-8.
  public static func ok(_ text: String) -> TestServerResponse {
    TestServerResponse(status: 200, body: Data(text.utf8), headers: ["Content-Type": "text/plain"])
  }

  /// A response with `status` and a short plain-text body naming it.
  public static func status(_ status: Int) -> TestServerResponse {
    TestServerResponse(
      status: status, body: Data("status \(status)".utf8), headers: ["Content-Type": "text/plain"])
  }
}
