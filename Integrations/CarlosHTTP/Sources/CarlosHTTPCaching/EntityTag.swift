#if HTTPCaching
/// An entity tag (RFC 9110, section 8.8.3): the validator in an `ETag` field,
/// sent back in `If-None-Match` to revalidate a stored response.
///
/// ```swift
/// let tag = EntityTag(parsing: "W/\"v2\"")  // weak, opaque tag "v2"
/// tag?.headerValue                           // "W/\"v2\""
/// ```
public struct EntityTag: Hashable, Sendable, Codable {
  /// Whether the tag is weak (`W/` prefix).
  public var isWeak: Bool
  /// The characters between the quotes.
  public var opaqueTag: String

  /// Creates a tag; `opaqueTag` must not contain `"` or control characters to be
  /// written in a header.
  public init(opaqueTag: String, isWeak: Bool = false) {
    self.opaqueTag = opaqueTag
    self.isWeak = isWeak
  }

  /// Reads an `ETag` field value: `"opaque"` or `W/"opaque"`, surrounding
  /// whitespace ignored; `nil` when it is anything else (an unquoted tag, a quote
  /// or control character inside, text after the closing quote).
  public init?(parsing text: String) {
    var bytes = Substring(text).utf8[...]
    while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
    while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
    var weak = false
    if bytes.starts(with: "W/".utf8) {
      weak = true
      bytes = bytes.dropFirst(2)
    }
    guard bytes.count >= 2, bytes.first == 0x22, bytes.last == 0x22 else { return nil }
    let inner = bytes.dropFirst().dropLast()
    // etagc = %x21 / %x23-7E / obs-text
    guard inner.allSatisfy({ $0 == 0x21 || ($0 >= 0x23 && $0 != 0x7F) }) else { return nil }
    isWeak = weak
    opaqueTag = String(decoding: inner, as: UTF8.self)
  }

  /// The field value that reads back as this tag.
  public var headerValue: String {
    (isWeak ? "W/" : "") + "\"" + opaqueTag + "\""
  }

  /// Whether two tags match by weak comparison (RFC 9110, section 8.8.3.2): the
  /// opaque tags are the same, weak or not.
  public func matchesWeakly(_ other: EntityTag) -> Bool {
    opaqueTag == other.opaqueTag
  }
}
#endif
