#if HTTPCaching
import Foundation

/// How a cache answers a client's conditional GET or HEAD from a stored
/// response (RFC 9110, section 13; RFC 9111, section 4.3.2).
enum HTTPConditionalRequest {
  /// The request fields that carry a client's validators; the cache sends its
  /// own in their place when it revalidates.
  static let validatorFields = [
    "If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range",
  ]

  /// Whether the stored 2xx `response` satisfies the request's `If-None-Match`
  /// (weak comparison, `*` matches any) or, when the request has none, its
  /// `If-Modified-Since` (the response was not modified since: its
  /// `Last-Modified`, or else its `Date`, or else `receivedAt`, is not later).
  static func isNotModified(
    _ response: HTTPResponse, receivedAt: Date, for request: HTTPHeaderFields
  ) -> Bool {
    guard (200..<300).contains(response.status) else { return false }
    let noneMatch = request.values(for: "If-None-Match")
    if !noneMatch.isEmpty {
      let members = noneMatch.flatMap { $0.split(separator: ",") }.map {
        $0.trimmingWhitespace()
      }
      if members.contains("*") { return true }
      guard let stored = response.headers["ETag"].flatMap(EntityTag.init(parsing:)) else {
        return false
      }
      return members.contains { EntityTag(parsing: $0)?.matchesWeakly(stored) ?? false }
    }
    guard let since = request["If-Modified-Since"].flatMap(HTTPDate.parse) else { return false }
    let modified =
      response.headers["Last-Modified"].flatMap(HTTPDate.parse)
      ?? response.headers["Date"].flatMap(HTTPDate.parse) ?? receivedAt
    return modified <= since
  }

  /// The 304 that stands for `response`: its header fields without those that
  /// frame its body, and no body.
  static func notModified(from response: HTTPResponse) -> HTTPResponse {
    var fields = response.headers
    for name in ["Content-Length", "Content-Range", "Transfer-Encoding"] {
      fields.remove(name: name)
    }
    return HTTPResponse(status: 304, headers: fields)
  }
}
#endif
