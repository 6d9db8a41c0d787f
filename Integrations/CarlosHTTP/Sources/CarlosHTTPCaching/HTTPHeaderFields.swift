#if HTTPCaching
/// The header fields of an HTTP request or response, in order, with lookup by
/// name that ignores case.
///
/// ```swift
/// var headers: HTTPHeaderFields = ["Accept": "application/json"]
/// headers.add(name: "Cache-Control", value: "no-cache")
/// headers["accept"]  // "application/json"
/// ```
public struct HTTPHeaderFields: Hashable, Codable, Sendable, RandomAccessCollection,
  ExpressibleByDictionaryLiteral
{
  /// The fields, in the order they were added or received.
  public private(set) var fields: [HTTPHeader]

  /// Creates a list of fields.
  public init(_ fields: [HTTPHeader] = []) {
    self.fields = fields
  }

  /// Creates a list of fields from name–value pairs, in order.
  public init(dictionaryLiteral elements: (String, String)...) {
    fields = elements.map { HTTPHeader(name: $0.0, value: $0.1) }
  }

  /// The position of the first field.
  public var startIndex: Int { fields.startIndex }
  /// The position after the last field.
  public var endIndex: Int { fields.endIndex }
  /// The field at `position`.
  public subscript(position: Int) -> HTTPHeader { fields[position] }

  /// The value of the first field called `name` (case ignored), or `nil`.
  public subscript(name: String) -> String? {
    fields.first { Self.same($0.name, name) }?.value
  }

  /// The values of every field called `name` (case ignored), in order.
  public func values(for name: String) -> [String] {
    fields.filter { Self.same($0.name, name) }.map(\.value)
  }

  /// Whether there is a field called `name` (case ignored).
  public func contains(name: String) -> Bool {
    fields.contains { Self.same($0.name, name) }
  }

  /// Adds a field after the others.
  public mutating func add(name: String, value: String) {
    fields.append(HTTPHeader(name: name, value: value))
  }

  /// Replaces every field called `name` (case ignored) with one field.
  public mutating func replaceOrAdd(name: String, value: String) {
    guard let first = fields.firstIndex(where: { Self.same($0.name, name) }) else {
      return add(name: name, value: value)
    }
    fields[first] = HTTPHeader(name: name, value: value)
    if fields[(first + 1)...].contains(where: { Self.same($0.name, name) }) {
      fields[(first + 1)...].removeAll { Self.same($0.name, name) }
    }
  }

  /// Removes every field called `name` (case ignored).
  public mutating func remove(name: String) {
    fields.removeAll { Self.same($0.name, name) }
  }

  /// Whether two field names are the same name: ASCII letters compare without case.
  static func same(_ a: String, _ b: String) -> Bool {
    var a = a
    var b = b
    return a.withUTF8 { x in
      b.withUTF8 { y in
        guard x.count == y.count else { return false }
        for index in x.indices where x[index] != y[index] {
          let folded = x[index] | 0x20
          guard folded == y[index] | 0x20, folded >= UInt8(ascii: "a"), folded <= UInt8(ascii: "z")
          else { return false }
        }
        return true
      }
    }
  }
}
#endif
