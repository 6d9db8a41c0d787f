import Carlos
import Foundation
import Testing

@Suite("JSONValue")
struct JSONValueTests {
  private func decode(_ text: String) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
  }

  @Test("decodes every kind of JSON value")
  func decodesEveryKind() throws {
    let value = try decode(
      #"{"name": "Carlos", "stars": 1234, "ratio": 0.5, "archived": false, "tags": ["cache", null]}"#
    )

    #expect(value["name"]?.stringValue == "Carlos")
    #expect(value["stars"]?.numberValue == 1234)
    #expect(value["ratio"]?.numberValue == 0.5)
    #expect(value["archived"]?.boolValue == false)
    #expect(value["tags"]?[0] == .string("cache"))
    #expect(value["tags"]?[1]?.isNull == true)
    #expect(value["tags"]?[2] == nil)
    #expect(value["missing"] == nil)
    #expect(value[0] == nil)
  }

  @Test("true and 1 stay different")
  func booleansAreNotNumbers() throws {
    #expect(try decode("[true, 1]") == .array([.bool(true), .number(1)]))
  }

  @Test("encoding then decoding gives the same value")
  func roundTrips() throws {
    let value = JSONValue.object([
      "list": .array([.number(1), .string("two"), .null, .bool(true)]),
      "nested": .object(["empty": .object([:])]),
    ])

    let data = try JSONEncoder().encode(value)

    #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
  }

  @Test("invalid JSON fails to decode")
  func invalidJSONFails() {
    #expect(throws: (any Error).self) { try decode("{not json") }
  }

  @Test("prints compactly")
  func printsCompactly() throws {
    #expect(try decode(#"{"b": [1, 2.5], "a": "x"}"#).description == #"{"a": "x", "b": [1, 2.5]}"#)
  }
}
