#if HTTPCaching
/// The directives of `Cache-Control` header fields (RFC 9111, section 5.2), read
/// leniently: a malformed list member is skipped, never fatal.
///
/// ```swift
/// let control = CacheControl(parsing: ["max-age=60, private"])
/// control.maxAge  // 60
/// ```
public struct CacheControl: Hashable, Sendable {
  /// One directive: a lowercased name and, for `name=argument`, its argument
  /// (a token or the unquoted content of a quoted string).
  public struct Directive: Hashable, Sendable {
    /// The directive's name, lowercased.
    public var name: String
    /// The argument after `=`, unquoted; `nil` when there is none.
    public var argument: String?

    /// Creates a directive; the name is lowercased.
    public init(name: String, argument: String? = nil) {
      self.name = name.lowercasedIfNeeded
      self.argument = argument
    }
  }

  /// The largest number of seconds a delta-seconds argument stands for: larger
  /// values count as this one (RFC 9111, section 1.2.2).
  public static let maximumDeltaSeconds = 2_147_483_648

  /// The directives in the order they appear.
  public var directives: [Directive]

  /// Creates a list of directives.
  public init(directives: [Directive] = []) {
    self.directives = directives
  }

  /// Reads the directives of every given `Cache-Control` field value, in order.
  public init(parsing values: [String]) {
    directives = values.flatMap { Self.parse(Array($0.utf8)) }
  }

  /// Reads the directives of one field value.
  public init(parsing value: String) {
    self.init(parsing: [value])
  }

  /// The field value that reads back as these directives.
  public var headerValue: String {
    directives.map { directive in
      guard let argument = directive.argument else { return directive.name }
      if !argument.isEmpty && argument.utf8.allSatisfy(Self.isTokenCharacter) {
        return "\(directive.name)=\(argument)"
      }
      var quoted = "\""
      for character in argument.unicodeScalars {
        if character == "\"" || character == "\\" { quoted.unicodeScalars.append("\\") }
        quoted.unicodeScalars.append(character)
      }
      return "\(directive.name)=\(quoted)\""
    }.joined(separator: ", ")
  }

  /// Whether the directive `name` is present (with or without an argument).
  public func contains(_ name: String) -> Bool {
    directives.contains { HTTPHeaderFields.same($0.name, name) }
  }

  /// The seconds of the first directive `name`, read as delta-seconds: `nil` when
  /// absent, 0 when its argument is not a number (so the response counts as
  /// stale), at most ``maximumDeltaSeconds``.
  public func seconds(_ name: String) -> Int? {
    guard let directive = directives.first(where: { HTTPHeaderFields.same($0.name, name) }) else {
      return nil
    }
    guard let argument = directive.argument, !argument.isEmpty,
      argument.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
    else { return 0 }
    var value = 0
    for digit in argument.utf8 {
      value = value * 10 + Int(digit - 0x30)
      if value >= Self.maximumDeltaSeconds { return Self.maximumDeltaSeconds }
    }
    return value
  }

  /// `max-age`, in seconds.
  public var maxAge: Int? { seconds("max-age") }
  /// `s-maxage`, in seconds (for shared caches only).
  public var sharedMaxAge: Int? { seconds("s-maxage") }
  /// Whether `no-store` is present.
  public var noStore: Bool { contains("no-store") }
  /// Whether `no-cache` is present, with or without a list of fields.
  public var noCache: Bool { contains("no-cache") }
  /// Whether `private` is present, with or without a list of fields.
  public var isPrivate: Bool { contains("private") }
  /// Whether `public` is present.
  public var isPublic: Bool { contains("public") }
  /// Whether `must-revalidate` is present.
  public var mustRevalidate: Bool { contains("must-revalidate") }

  // MARK: - Parsing

  /// Characters of an HTTP token (RFC 9110, section 5.6.2).
  static func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
      UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
      UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
      UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
      return true
    default: return false
    }
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
  }

  /// The directives of one field value; a member that is not `token [= token /
  /// quoted-string]` is skipped up to the next comma outside quotes.
  private static func parse(_ bytes: [UInt8]) -> [Directive] {
    var result: [Directive] = []
    var index = 0
    let comma = UInt8(ascii: ",")
    let quote = UInt8(ascii: "\"")
    let backslash = UInt8(ascii: "\\")

    // Skips to just after the next comma outside a quoted string.
    func skipMember() {
      var inQuotes = false
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        if inQuotes {
          if byte == backslash {
            index += 1
          } else if byte == quote {
            inQuotes = false
          }
        } else if byte == quote {
          inQuotes = true
        } else if byte == comma {
          return
        }
      }
    }

    while index < bytes.count {
      while index < bytes.count && (isSpace(bytes[index]) || bytes[index] == comma) { index += 1 }
      guard index < bytes.count else { break }
      let nameStart = index
      while index < bytes.count && isTokenCharacter(bytes[index]) { index += 1 }
      guard index > nameStart else {
        skipMember()
        continue
      }
      let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercasedIfNeeded
      let nameEnd = index
      while index < bytes.count && isSpace(bytes[index]) { index += 1 }
      var argument: String?
      if index < bytes.count && bytes[index] == UInt8(ascii: "=") {
        // `name =value` and `name= value` are not in the grammar: such a member
        // is not a directive (RFC 9111, 4.2.1: invalid freshness information).
        index += 1
        guard index == nameEnd + 1, index < bytes.count, !isSpace(bytes[index]) else {
          skipMember()
          continue
        }
        if bytes[index] == quote {
          index += 1
          var content: [UInt8] = []
          var closed = false
          while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == backslash {
              if index < bytes.count {
                content.append(bytes[index])
                index += 1
              }
            } else if byte == quote {
              closed = true
              break
            } else {
              content.append(byte)
            }
          }
          guard closed else { break }
          argument = String(decoding: content, as: UTF8.self)
        } else {
          let start = index
          while index < bytes.count && isTokenCharacter(bytes[index]) { index += 1 }
          argument = String(decoding: bytes[start..<index], as: UTF8.self)
        }
        while index < bytes.count && isSpace(bytes[index]) { index += 1 }
      }
      if index < bytes.count && bytes[index] != comma {
        skipMember()
        continue
      }
      result.append(Directive(name: name, argument: argument))
    }
    return result
  }
}
#endif
