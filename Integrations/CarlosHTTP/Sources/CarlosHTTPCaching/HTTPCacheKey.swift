import Foundation

/// The primary cache key of a stored response (RFC 9111, section 4): the
/// request method and the normalised target URI. Request header fields are not
/// part of it; a response that varies on them is stored as a variant of its
/// key (see ``HTTPCacheEntry``).
///
/// Two URIs that name the same resource give the same key: the scheme and host
/// are lowercased, a default port (80 for `http`, 443 for `https`) is dropped,
/// an empty path becomes `/`, percent-encoded unreserved characters are
/// decoded, other percent-escapes use uppercase hexadecimal digits, and the
/// fragment is dropped. The query is kept as it is.
///
/// ```swift
/// let key = HTTPCacheKey(method: "GET", url: URL(string: "HTTP://Example.com:80/a?b")!)
/// key.uri  // "http://example.com/a?b"
/// ```
public struct HTTPCacheKey: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The request method, uppercased.
  public let method: String
  /// The normalised target URI.
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
  /// default port, a path, and no percent-escape or fragment.
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
      // Nothing to decode, nothing beyond ASCII, no fragment.
      func isPlain(_ byte: UInt8) -> Bool {
        byte < 0x80 && byte != UInt8(ascii: "%") && byte != UInt8(ascii: "#")
      }
      // The authority: lowercase, not empty, without the scheme's default port.
      var index = authorityStart
      while index < bytes.count, bytes[index] != UInt8(ascii: "/") {
        let byte = bytes[index]
        guard isPlain(byte), byte != UInt8(ascii: "?"),
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
      return bytes[index...].allSatisfy(isPlain)
    }
  }

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
    var path = normalisedEscapes(components.percentEncodedPath)
    if path.isEmpty && components.host != nil { path = "/" }
    components.percentEncodedPath = path
    if let query = components.percentEncodedQuery {
      components.percentEncodedQuery = normalisedEscapes(query)
    }
    return components.string ?? absolute.absoluteString
  }

  /// `text` with percent-escapes of unreserved characters decoded and the
  /// other escapes' hexadecimal digits uppercased.
  private static func normalisedEscapes(_ text: String) -> String {
    let bytes = Array(text.utf8)
    guard bytes.contains(UInt8(ascii: "%")) else { return text }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
        let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
      {
        let byte = high << 4 | low
        if isUnreserved(byte) {
          result.append(byte)
        } else {
          result.append(UInt8(ascii: "%"))
          result.append(contentsOf: String(format: "%02X", byte).utf8)
        }
        index += 3
      } else {
        result.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: result, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: return byte - 0x30
    case 0x41...0x46: return byte - 0x41 + 10
    case 0x61...0x66: return byte - 0x61 + 10
    default: return nil
    }
  }

  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      return true
    default: return false
    }
  }
}
