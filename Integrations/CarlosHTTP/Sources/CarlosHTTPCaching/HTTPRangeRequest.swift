#if HTTPCaching
import Foundation

/// How a cache answers a GET with `Range` from a complete stored response
/// (RFC 9110, section 14): one byte range is served as a 206 with
/// `Content-Range`; an unsatisfiable one gets a 416; several ranges, another
/// unit, or an `If-Range` the stored response does not match get the whole
/// response.
enum HTTPRangeRequest {
  /// The answer to a request with `request` fields from the complete 200
  /// `response`, or `nil` when the whole response is the answer.
  static func partial(_ response: HTTPResponse, for request: HTTPHeaderFields) -> HTTPResponse? {
    guard response.status == 200, let range = request["Range"],
      ifRangeMatches(response, request["If-Range"])
    else { return nil }
    let text = range.trimmingWhitespace()
    guard text.lowercased().hasPrefix("bytes="), !text.contains(",") else { return nil }
    let spec = text.dropFirst("bytes=".count).trimmingWhitespace()
    let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2 else { return nil }
    let length = response.body.count
    let first: Int
    let last: Int
    if parts[0].isEmpty {
      guard let suffix = Int(parts[1]), suffix >= 0 else { return nil }
      guard suffix > 0, length > 0 else { return unsatisfiable(response) }
      first = max(0, length - suffix)
      last = length - 1
    } else {
      guard let start = Int(parts[0]), start >= 0 else { return nil }
      if parts[1].isEmpty {
        last = length - 1
      } else {
        guard let end = Int(parts[1]), end >= start else { return nil }
        last = min(end, length - 1)
      }
      guard start < length else { return unsatisfiable(response) }
      first = start
    }
    var partial = response
    partial.status = 206
    partial.body = response.body.subdata(in: first..<(last + 1))
    partial.headers.remove(name: "Content-Length")
    partial.headers.replaceOrAdd(name: "Content-Range", value: "bytes \(first)-\(last)/\(length)")
    return partial
  }

  /// Whether an `If-Range` (absent, a strong entity tag equal to the stored one,
  /// or the stored `Last-Modified` exactly) lets the range be served.
  private static func ifRangeMatches(_ response: HTTPResponse, _ ifRange: String?) -> Bool {
    guard let ifRange = ifRange?.trimmingWhitespace() else { return true }
    if let tag = EntityTag(parsing: ifRange) {
      guard !tag.isWeak, let stored = response.headers["ETag"].flatMap(EntityTag.init(parsing:)),
        !stored.isWeak
      else { return false }
      return stored.opaqueTag == tag.opaqueTag
    }
    guard let date = HTTPDate.parse(ifRange),
      let modified = response.headers["Last-Modified"].flatMap(HTTPDate.parse)
    else { return false }
    return date == modified
  }

  /// A 416 for a range the response cannot satisfy.
  private static func unsatisfiable(_ response: HTTPResponse) -> HTTPResponse {
    HTTPResponse(
      status: 416,
      headers: ["Content-Range": "bytes */\(response.body.count)", "Content-Length": "0"])
  }
}
#endif
