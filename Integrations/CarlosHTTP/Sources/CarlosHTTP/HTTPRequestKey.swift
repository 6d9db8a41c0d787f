import Foundation

/// What the HTTP level fetches: a method, a URL and request header fields.
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

  /// Creates a key.
  public init(_ url: URL, method: String = "GET", headers: HTTPHeaderFields = [:]) {
    self.url = url.absoluteURL
    self.method = method.uppercased()
    let cleaned = headers.map { field in
      HTTPHeader(
        name: field.name.lowercased(),
        value: String(
          field.value.unicodeScalars.map { $0 == "\r" || $0 == "\n" ? " " : Character($0) }))
    }
    // A stable sort: same-name fields keep their order, which can matter.
    let sorted = cleaned.enumerated().sorted {
      $0.element.name == $1.element.name ? $0.offset < $1.offset : $0.element.name < $1.element.name
    }
    self.headers = HTTPHeaderFields(sorted.map(\.element))
  }

  /// One line per part: the method and URL, then `name: value` for each field.
  public var canonicalString: String {
    ([method + " " + url.absoluteString] + headers.map { "\($0.name): \($0.value)" })
      .joined(separator: "\n")
  }

  /// The same as ``canonicalString``.
  public var description: String { canonicalString }

  /// This key with `name: value` in place of any field called `name`.
  func replacing(name: String, value: String) -> HTTPRequestKey {
    var fields = headers
    fields.replaceOrAdd(name: name, value: value)
    return HTTPRequestKey(url, method: method, headers: fields)
  }

  /// This key with another method.
  func with(method: String) -> HTTPRequestKey {
    HTTPRequestKey(url, method: method, headers: headers)
  }

  /// Reads the key back from JSON through its initializer, so a decoded key is
  /// normalized like a created one.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      try container.decode(URL.self, forKey: .url),
      method: try container.decode(String.self, forKey: .method),
      headers: try container.decode(HTTPHeaderFields.self, forKey: .headers))
  }

  private enum CodingKeys: String, CodingKey {
    case method, url, headers
  }
}
