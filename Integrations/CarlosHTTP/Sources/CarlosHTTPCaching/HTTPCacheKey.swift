#if HTTPCaching
import Foundation

/// The primary cache key of a stored response (RFC 9111, section 4): the
/// request method and the target URI as the origin receives it. Request header
/// fields are not part of it; a response that varies on them is stored as a
/// variant of its key (see ``HTTPCacheEntry``).
///
/// Only what does not change the request sent upstream is normalised: the
/// scheme and host are lowercased, a default port (80 for `http`, 443 for
/// `https`) is dropped, an empty path becomes `/`, and the fragment is dropped.
/// The path and query are kept byte for byte: percent-escapes are neither
/// decoded nor recased and dot segments are not resolved, because the origin
/// receives them as they are and may answer `/%41` and `/A` differently.
///
/// ```swift
/// let key = HTTPCacheKey(method: "GET", url: URL(string: "HTTP://Example.com:80/%7Ea?b")!)
/// key.uri  // "http://example.com/%7Ea?b"
/// ```
public struct HTTPCacheKey: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The request method, uppercased.
  public let method: String
  /// The target URI, normalised as the type describes.
  public let uri: String

  /// Creates the key of `method` on `url`.
  public init(method: String = "GET", url: URL) {
    self.method = method.uppercasedIfNeeded
    self.uri = Self.normalised(url)
  }

  /// A key from parts that are already normal.
  private init(method: String, normalisedURI: String) {
    self.method = method
    self.uri = normalisedURI
  }

  /// The key of another method on the same URI.
  func withMethod(_ method: String) -> HTTPCacheKey {
    HTTPCacheKey(method: method.uppercasedIfNeeded, normalisedURI: uri)
  }

  /// The key's method and URI, separated by a space: the name disk and other
  /// named levels store it under.
  public var description: String { method + " " + uri }

  /// Reads the key back from JSON through its initializer, so a decoded key is
  /// normalised like a created one.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let text = try container.decode(String.self, forKey: .uri)
    guard let url = URL(string: text) else {
      throw DecodingError.dataCorruptedError(
        forKey: .uri, in: container, debugDescription: "not a URI: \(text)")
    }
    self.init(method: try container.decode(String.self, forKey: .method), url: url)
  }

  private enum CodingKeys: String, CodingKey {
    case method, uri
  }

  /// `url` in its normal form (see ``HTTPCacheKey``).
  static func normalised(_ url: URL) -> String {
    let text = url.absoluteString
    return isNormal(text) ? text : componentwiseNormalised(url)
  }

  /// Whether `text` is already in its normal form, as most request targets are:
  /// ASCII, a lowercase `http` or `https` scheme and authority without the
  /// default port or a percent-escape, a path, and no fragment.
  static func isNormal(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      func starts(with prefix: StaticString) -> Bool {
        bytes.count >= prefix.utf8CodeUnitCount
          && bytes.prefix(prefix.utf8CodeUnitCount).elementsEqual(
            UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
      }
      let secure = starts(with: "https://")
      guard secure || starts(with: "http://") else { return false }
      let authorityStart = secure ? 8 : 7
      // Nothing beyond ASCII, no fragment.
      func isPlain(_ byte: UInt8) -> Bool {
        byte < 0x80 && byte != UInt8(ascii: "#")
      }
      // The authority: lowercase, not empty, without the scheme's default port or
      // an escape (which could hide an uppercase letter).
      var index = authorityStart
      while index < bytes.count, bytes[index] != UInt8(ascii: "/") {
        let byte = bytes[index]
        guard isPlain(byte), byte != UInt8(ascii: "?"), byte != UInt8(ascii: "%"),
          !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        else { return false }
        index += 1
      }
      guard index < bytes.count, index > authorityStart else { return false }
      let defaultPort: StaticString = secure ? ":443" : ":80"
      let portLength = defaultPort.utf8CodeUnitCount
      if index - authorityStart >= portLength,
        bytes[(index - portLength)..<index].elementsEqual(
          UnsafeBufferPointer(start: defaultPort.utf8Start, count: portLength))
      {
        return false
      }
      // The path and query are kept as they are, escapes included.
      return bytes[index...].allSatisfy(isPlain)
    }
  }

  /// `url` in its normal form, component by component: the scheme and host
  /// lowercased, without a default port or a fragment, an empty path as `/`,
  /// and the path and query untouched.
  static func componentwiseNormalised(_ url: URL) -> String {
    let absolute = url.absoluteURL
    guard var components = URLComponents(url: absolute, resolvingAgainstBaseURL: true) else {
      return absolute.absoluteString
    }
    let scheme = components.scheme?.lowercased()
    components.scheme = scheme
    components.host = components.host?.lowercased()
    if let port = components.port,
      (scheme == "http" && port == 80) || (scheme == "https" && port == 443)
    {
      components.port = nil
    }
    components.fragment = nil
    if components.percentEncodedPath.isEmpty && components.host != nil {
      components.percentEncodedPath = "/"
    }
    return components.string ?? absolute.absoluteString
  }
}
#endif
