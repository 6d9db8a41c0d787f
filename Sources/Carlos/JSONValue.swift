/// A JSON document of any shape: the value type of
/// ``CacheProvider/JSONCache(folder:memoryCapacity:diskCapacity:fetcher:)``
/// and ``CacheProvider/sharedJSONCache``.
///
/// Use it when the shape of the JSON is not known in advance; decode into your
/// own `Codable` type with ``CacheProvider/JSONCache(of:folder:memoryCapacity:diskCapacity:fetcher:)``
/// when it is. Numbers are kept as `Double` (integers above 2^53 lose precision).
public enum JSONValue: Codable, Sendable, Hashable, CustomStringConvertible {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number.
  case number(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object.
  case object([String: JSONValue])

  /// Decodes any JSON value.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let bool = try? container.decode(Bool.self) {
      self = .bool(bool)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let string = try? container.decode(String.self) {
      self = .string(string)
    } else if let array = try? container.decode([JSONValue].self) {
      self = .array(array)
    } else if let object = try? container.decode([String: JSONValue].self) {
      self = .object(object)
    } else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
    }
  }

  /// Encodes the value as JSON.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let bool): try container.encode(bool)
    case .number(let number): try container.encode(number)
    case .string(let string): try container.encode(string)
    case .array(let array): try container.encode(array)
    case .object(let object): try container.encode(object)
    }
  }

  /// The member named `key` when this is an object that has one, otherwise `nil`.
  public subscript(key: String) -> JSONValue? {
    if case .object(let object) = self { return object[key] }
    return nil
  }

  /// The element at `index` when this is an array that long, otherwise `nil`.
  public subscript(index: Int) -> JSONValue? {
    if case .array(let array) = self, array.indices.contains(index) { return array[index] }
    return nil
  }

  /// The string when this is a string, otherwise `nil`.
  public var stringValue: String? {
    if case .string(let string) = self { return string }
    return nil
  }

  /// The number when this is a number, otherwise `nil`.
  public var numberValue: Double? {
    if case .number(let number) = self { return number }
    return nil
  }

  /// The Boolean when this is `true` or `false`, otherwise `nil`.
  public var boolValue: Bool? {
    if case .bool(let bool) = self { return bool }
    return nil
  }

  /// The elements when this is an array, otherwise `nil`.
  public var arrayValue: [JSONValue]? {
    if case .array(let array) = self { return array }
    return nil
  }

  /// The members when this is an object, otherwise `nil`.
  public var objectValue: [String: JSONValue]? {
    if case .object(let object) = self { return object }
    return nil
  }

  /// Whether this is `null`.
  public var isNull: Bool {
    self == .null
  }

  /// A compact JSON-like rendering, for printing.
  public var description: String {
    switch self {
    case .null: return "null"
    case .bool(let bool): return bool ? "true" : "false"
    case .number(let number):
      if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
      return String(number)
    case .string(let string): return "\"\(string)\""
    case .array(let array): return "[" + array.map(\.description).joined(separator: ", ") + "]"
    case .object(let object):
      let members = object.sorted { $0.key < $1.key }.map {
        "\"\($0.key)\": \($0.value.description)"
      }
      return "{" + members.joined(separator: ", ") + "}"
    }
  }
}
