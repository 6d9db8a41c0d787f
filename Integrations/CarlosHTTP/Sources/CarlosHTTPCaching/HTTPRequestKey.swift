#if HTTPCaching
import Foundation

/// A request: what the HTTP level fetches and what an ``HTTPCache`` answers: a
/// method, a URL, request header fields and a body (empty by default).
///
/// An ``HTTPCache`` does not store responses under the whole request: its
/// storage key is the request's ``cacheKey`` (method and normalised URI), and
/// the header fields a response's `Vary` nominates select among the stored
/// variants. The header fields are sent to the origin.
///
/// Two keys are equal when they ask for the same thing: the method is
/// uppercased, header names are lowercased and fields are ordered by name
/// (fields with the same name keep their order). Header values lose carriage
/// returns and line feeds (replaced by spaces), so a key's
/// ``canonicalString`` names it unambiguously; that string is how disk and other
/// named levels store it.
///
/// ```swift
/// let key = HTTPRequestKey(URL(string: "https://example.com/a")!, headers: ["Accept": "text/html"])
/// ```
public struct HTTPRequestKey: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The request method, uppercased (`GET` by default).
  public let method: String
  /// The URL to request.
  public let url: URL
  /// The request header fields: names lowercased, ordered by name.
  public let headers: HTTPHeaderFields
  /// The request body, sent as it is (empty: none).
  public let body: Data

  /// Creates a key.
  public init(
    _ url: URL, method: String = "GET", headers: HTTPHeaderFields = [:], body: Data = Data()
  ) {
    self.url = url.absoluteURL
    self.body = body
    self.method = method.uppercasedIfNeeded
    let cleaned = headers.map { field in
      let breaksLine = field.value.utf8.contains {
        $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n")
      }
      return HTTPHeader(
        name: field.name.lowercasedIfNeeded,
        value: !breaksLine
          ? field.value
          : String(
            field.value.unicodeScalars.map { $0 == "\r" || $0 == "\n" ? " " : Character($0) }))
    }
    if zip(cleaned, cleaned.dropFirst()).allSatisfy({ $0.name <= $1.name }) {
      self.headers = HTTPHeaderFields(cleaned)
    } else {
      // A stable sort: same-name fields keep their order, which can matter.
      let sorted = cleaned.enumerated().sorted {
        $0.element.name == $1.element.name
          ? $0.offset < $1.offset : $0.element.name < $1.element.name
      }
      self.headers = HTTPHeaderFields(sorted.map(\.element))
    }
  }

  /// One line per part: the method and URL, then `name: value` for each field,
  /// then, when there is a body, an empty line and the body in Base64.
  public var canonicalString: String {
    let lines = [method + " " + url.absoluteString] + headers.map { "\($0.name): \($0.value)" }
    let head = lines.joined(separator: "\n")
    return body.isEmpty ? head : head + "\n\n" + body.base64EncodedString()
  }

  /// The primary key an ``HTTPCache`` stores the response to this request under:
  /// the method and the normalised URL.
  public var cacheKey: HTTPCacheKey { HTTPCacheKey(method: method, url: url) }

  /// The same as ``canonicalString``.
  public var description: String { canonicalString }

  /// This key with `name: value` in place of any field called `name`.
  func replacing(name: String, value: String) -> HTTPRequestKey {
    var fields = headers
    fields.replaceOrAdd(name: name, value: value)
    return HTTPRequestKey(url, method: method, headers: fields, body: body)
  }

  /// This key with other header fields.
  func with(headers: HTTPHeaderFields) -> HTTPRequestKey {
    HTTPRequestKey(url, method: method, headers: headers, body: body)
  }

  /// Reads the key back from JSON through its initializer, so a decoded key is
  /// normalized like a created one.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      try container.decode(URL.self, forKey: .url),
      method: try container.decode(String.self, forKey: .method),
      headers: try container.decode(HTTPHeaderFields.self, forKey: .headers),
      body: try container.decodeIfPresent(Data.self, forKey: .body) ?? Data())
  }

  /// Writes the key as JSON; the body only when there is one.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(method, forKey: .method)
    try container.encode(url, forKey: .url)
    try container.encode(headers, forKey: .headers)
    if !body.isEmpty { try container.encode(body, forKey: .body) }
  }

  private enum CodingKeys: String, CodingKey {
    case method, url, headers, body
  }
}
#endif
