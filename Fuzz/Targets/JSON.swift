import Foundation

@testable import Carlos

typealias Fuzzed = JSONInput

/// JSON from outside: the input is decoded as a ``JSONValue`` (straight, and
/// through ``JSONTransformer``, as the JSON caches do) and as a typed `Codable`
/// value through ``JSONTransformer``.
///
/// Invariants: no crash or hang on any input; a decoded value encodes (with
/// ``JSONTransformer/inverseTransform(_:)``) to JSON that decodes to an equal
/// value; the transformer and the plain decoder agree; `description` renders.
enum JSONInput: FuzzTarget {
  /// A typed value of the kind an app caches.
  struct Article: Codable, Equatable, Sendable {
    var id: Int
    var title: String
    var tags: [String]
    var score: Double?
    var related: [String: [Int]]?
  }

  static func seeds() -> [[UInt8]] {
    let values: [JSONValue] = [
      .null, .bool(true), .number(-12.5e3), .string("é\u{0}\"\\\n"),
      .array([.number(1), .array([]), .object([:])]),
      .object([
        "a": .object(["b": .array([.null, .bool(false), .string("")])]), "n": .number(1e300),
      ]),
    ]
    let articles = [
      Article(id: 1, title: "t", tags: ["a", "b"], score: 0.5, related: ["x": [1, 2]]),
      Article(id: -9, title: "", tags: [], score: nil, related: nil),
    ]
    return values.compactMap { encoded($0) } + articles.compactMap { encoded($0) }
  }

  static func encoded<T: Codable & Sendable>(_ value: T) -> [UInt8]? {
    JSONTransformer<T>().inverseTransform(value).result?.value.map(Array.init)
  }

  static func fuzz(_ input: UnsafeRawBufferPointer) {
    let data = Data(input)
    roundTrip(JSONValue.self, data) { _ = $0.description }
    roundTrip(Article.self, data) { _ in }
  }

  /// Decodes `data` as `T` both ways, and checks an accepted value round-trips.
  static func roundTrip<T: Codable & Equatable & Sendable>(
    _ type: T.Type, _ data: Data, _ use: (T) -> Void
  ) {
    let transformer = JSONTransformer<T>()
    guard let outcome = transformer.transform(data).result else {
      fatalError("JSONTransformer.transform did not complete at once")
    }
    let direct = try? JSONDecoder().decode(T.self, from: data)
    require(
      outcome.value == direct,
      "the transformer read \(outcome), the decoder \(String(describing: direct))")
    guard let value = direct else { return }
    use(value)
    guard let written = transformer.inverseTransform(value).result?.value else {
      fatalError("a decoded \(T.self) cannot be encoded: \(value)")
    }
    guard let reread = transformer.transform(written).result?.value else {
      fatalError(
        "\(T.self) written as \(String(decoding: written, as: UTF8.self)) does not read back")
    }
    require(reread == value, "\(value) reads back as \(reread)")
  }
}
