#if HTTPCaching
/// A targeted cache-control field such as `CDN-Cache-Control` (RFC 9213): a
/// structured-field dictionary (RFC 8941, section 3.2) read as cache
/// directives.
///
/// A member with an integer value is a directive with that argument (a
/// negative one is left out), a member without a value (`true`) a directive
/// without one; members with other types (a string, a token, a decimal, bytes,
/// `false`, an inner list) are left out, so `max-age="60"` does not count. A
/// field that is not a valid dictionary is ignored as a whole.
///
/// ```swift
/// TargetedCacheControl.parse(["max-age=60, private"])  // max-age=60, private
/// TargetedCacheControl.parse(["max-age=60, &&"])       // nil: not a dictionary
/// ```
public enum TargetedCacheControl {
  /// The directives of the field's lines (joined as one list), or `nil` when
  /// they are not a valid structured-field dictionary or are empty.
  public static func parse(_ values: [String]) -> CacheControl? {
    var reader = Reader(Array(values.joined(separator: ",").utf8))
    guard let members = reader.dictionary(), !members.isEmpty else { return nil }
    return CacheControl(directives: members)
  }

  /// A cursor over the field's bytes that reads RFC 8941 syntax.
  private struct Reader {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) {
      self.bytes = bytes
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skip(_ allowed: (UInt8) -> Bool) {
      while let byte = current, allowed(byte) { index += 1 }
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 }
    static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    static func isLowercaseLetter(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// The dictionary's members as directives; `nil` on a syntax error.
    mutating func dictionary() -> [CacheControl.Directive]? {
      var directives: [CacheControl.Directive] = []
      skip(Self.isSpace)
      while current != nil {
        guard let name = key() else { return nil }
        var directive: CacheControl.Directive? = CacheControl.Directive(name: name)
        if current == UInt8(ascii: "=") {
          index += 1
          if current == UInt8(ascii: "(") {
            guard innerList() else { return nil }
            directive = nil
          } else {
            guard let value = bareItem() else { return nil }
            switch value {
            case .integer(let number):
              directive = number >= 0 ? .init(name: name, argument: String(number)) : nil
            case .boolean(let flag): directive = flag ? .init(name: name) : nil
            case .other: directive = nil
            }
          }
        }
        guard parameters() else { return nil }
        if let directive {
          directives.removeAll { $0.name == directive.name }
          directives.append(directive)
        } else {
          directives.removeAll { $0.name == name }
        }
        skip(Self.isWhitespace)
        guard let separator = current else { break }
        guard separator == UInt8(ascii: ",") else { return nil }
        index += 1
        skip(Self.isWhitespace)
        if current == nil { return nil }
      }
      return directives
    }

    /// A key: a lowercase letter or `*`, then lowercase letters, digits, `_-.*`.
    mutating func key() -> String? {
      guard let first = current, Self.isLowercaseLetter(first) || first == UInt8(ascii: "*")
      else { return nil }
      let start = index
      skip {
        Self.isLowercaseLetter($0) || Self.isDigit($0) || $0 == UInt8(ascii: "_")
          || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "*")
      }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    enum Item {
      case integer(Int)
      case boolean(Bool)
      case other
    }

    /// A bare item; `nil` on a syntax error.
    mutating func bareItem() -> Item? {
      guard let first = current else { return nil }
      switch first {
      case UInt8(ascii: "-"), 0x30...0x39: return number()
      case UInt8(ascii: "\""): return string() ? .other : nil
      case UInt8(ascii: ":"): return byteSequence() ? .other : nil
      case UInt8(ascii: "?"):
        index += 1
        guard let flag = current, flag == UInt8(ascii: "0") || flag == UInt8(ascii: "1") else {
          return nil
        }
        index += 1
        return .boolean(flag == UInt8(ascii: "1"))
      case UInt8(ascii: "*"), 0x41...0x5A, 0x61...0x7A:
        index += 1
        skip {
          CacheControl.isTokenCharacter($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/")
        }
        return .other
      default: return nil
      }
    }

    /// An integer (up to 15 digits) or a decimal; `nil` on a syntax error.
    mutating func number() -> Item? {
      var negative = false
      if current == UInt8(ascii: "-") {
        negative = true
        index += 1
      }
      let start = index
      skip(Self.isDigit)
      let integerDigits = index - start
      guard integerDigits > 0 else { return nil }
      if current == UInt8(ascii: ".") {
        guard integerDigits <= 12 else { return nil }
        index += 1
        let fractionStart = index
        skip(Self.isDigit)
        let fractionDigits = index - fractionStart
        guard fractionDigits > 0, fractionDigits <= 3 else { return nil }
        return .other
      }
      guard integerDigits <= 15 else { return nil }
      let value = bytes[start..<index].reduce(0) { $0 * 10 + Int($1 - 0x30) }
      return .integer(negative ? -value : value)
    }

    /// A quoted string of printable ASCII with `\"` and `\\` escapes.
    mutating func string() -> Bool {
      index += 1
      while let byte = current {
        index += 1
        switch byte {
        case UInt8(ascii: "\\"):
          guard let escaped = current,
            escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\")
          else { return false }
          index += 1
        case UInt8(ascii: "\""): return true
        case 0x20...0x7E: continue
        default: return false
        }
      }
      return false
    }

    /// A byte sequence: base64 between colons.
    mutating func byteSequence() -> Bool {
      index += 1
      skip {
        Self.isLowercaseLetter($0) || Self.isDigit($0) || ($0 >= 0x41 && $0 <= 0x5A)
          || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "=")
      }
      guard current == UInt8(ascii: ":") else { return false }
      index += 1
      return true
    }

    /// An inner list: items separated by spaces between parentheses, then parameters.
    mutating func innerList() -> Bool {
      index += 1
      while true {
        skip(Self.isSpace)
        guard let byte = current else { return false }
        if byte == UInt8(ascii: ")") {
          index += 1
          return true
        }
        guard bareItem() != nil, parameters() else { return false }
        guard let next = current, next == UInt8(ascii: " ") || next == UInt8(ascii: ")") else {
          return false
        }
      }
    }

    /// Parameters: `;key` or `;key=item`, any number.
    mutating func parameters() -> Bool {
      while current == UInt8(ascii: ";") {
        index += 1
        skip(Self.isSpace)
        guard key() != nil else { return false }
        if current == UInt8(ascii: "=") {
          index += 1
          guard bareItem() != nil else { return false }
        }
      }
      return true
    }
  }
}
#endif
