#if HTTPCaching
/// The `Vary` field of a stored response (RFC 9110, section 12.5.5): which
/// request header fields select it among the responses stored for one
/// ``HTTPCacheKey``.
///
/// Values are compared after normalisation: fields of one name are combined
/// into one list, whitespace around list members, `;` and `=` is dropped, and
/// fields whose values ignore case and order (`Accept-Encoding`,
/// `Accept-Language`, `Accept-Charset`) are lowercased and their members
/// sorted.
///
/// ```swift
/// let vary = HTTPVary(response.headers)
/// vary.selectingFields(of: ["Accept-Language": "en, DE"])  // accept-language: de,en
/// ```
public struct HTTPVary: Hashable, Sendable {
  /// The nominated field names, lowercased, in order, each once.
  public var fieldNames: [String]
  /// Whether `*` is among them: the response matches no later request.
  public var matchesNothing: Bool

  /// Reads the `Vary` fields of a response's `headers`.
  public init(_ headers: HTTPHeaderFields) {
    self.init(parsing: headers.values(for: "Vary"))
  }

  /// Reads `Vary` field values (several lines are one list).
  public init(parsing values: [String]) {
    var names: [String] = []
    var star = false
    for value in values {
      for member in value.split(separator: ",") {
        let name = member.trimmingWhitespace().lowercased()
        if name.isEmpty { continue }
        if name == "*" { star = true }
        if !names.contains(name) { names.append(name) }
      }
    }
    fieldNames = names.filter { $0 != "*" }
    matchesNothing = star
  }

  /// The nominated fields of a request with `requestFields`, normalised, in the
  /// order of ``fieldNames``; a field the request lacks is left out.
  public func selectingFields(of requestFields: HTTPHeaderFields) -> HTTPHeaderFields {
    var selected = HTTPHeaderFields()
    for name in fieldNames {
      let values = requestFields.values(for: name)
      if values.isEmpty { continue }
      selected.add(name: name, value: Self.normalised(values, of: name))
    }
    return selected
  }

  /// The fields whose values ignore case and the order of their members.
  static let unorderedCaseInsensitiveFields: Set<String> = [
    "accept-encoding", "accept-language", "accept-charset",
  ]

  /// The values of the field `name` as one normalised list.
  static func normalised(_ values: [String], of name: String) -> String {
    var members: [String] = []
    for value in values {
      for member in splitList(value) {
        let compact = compacted(member)
        if !compact.isEmpty { members.append(compact) }
      }
    }
    if unorderedCaseInsensitiveFields.contains(name.lowercased()) {
      members = members.map { $0.lowercased() }.sorted()
    }
    return members.joined(separator: ",")
  }

  /// The members of a comma-separated list; commas inside quoted strings do not split.
  ///
  /// Reads Unicode scalars, not `Character`s: a scalar such as U+06DD joins the
  /// quote or comma after it into one `Character`, so that text joined and split
  /// again would split in other places.
  private static func splitList(_ value: String) -> [String] {
    var members: [String] = []
    var member = String.UnicodeScalarView()
    var inQuotes = false
    var escaped = false
    for scalar in value.unicodeScalars {
      if escaped {
        escaped = false
      } else if inQuotes && scalar == "\\" {
        escaped = true
      } else if scalar == "\"" {
        inQuotes.toggle()
      } else if scalar == "," && !inQuotes {
        members.append(String(member))
        member = String.UnicodeScalarView()
        continue
      }
      member.append(scalar)
    }
    members.append(String(member))
    return members
  }

  /// `member` without whitespace at its ends and around `;` and `=` outside quotes,
  /// with an unclosed quoted string closed.
  private static func compacted(_ member: String) -> String {
    var result = String.UnicodeScalarView()
    var pendingSpace = false
    var inQuotes = false
    var escaped = false
    for scalar in member.trimmingWhitespace().unicodeScalars {
      if inQuotes {
        result.append(scalar)
        if escaped {
          escaped = false
        } else if scalar == "\\" {
          escaped = true
        } else if scalar == "\"" {
          inQuotes = false
        }
        continue
      }
      if scalar == " " || scalar == "\t" {
        pendingSpace = true
        continue
      }
      if pendingSpace && scalar != ";" && scalar != "=" && result.last != ";"
        && result.last != "="
      {
        result.append(" ")
      }
      pendingSpace = false
      if scalar == "\"" { inQuotes = true }
      result.append(scalar)
    }
    // An unclosed quoted string is closed, so that members joined and split again
    // (after sorting, or in a second pass) split in the same places.
    if inQuotes {
      if escaped { result.append("\\") }
      result.append("\"")
    }
    return String(result)
  }
}
#endif
