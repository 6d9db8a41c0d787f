import Foundation

/// How a ``DiskCacheLevel`` turns its values into bytes and back.
///
/// `Data` is stored byte for byte; any other `Codable` value is stored as JSON.
/// The encoding is recorded in each file, so a level never hands back bytes that
/// were written by a level with another encoding.
package struct DiskValueCoder<Value: Sendable>: Sendable {
  /// The tag written in the file header.
  package let encoding: UInt16
  /// Turns a value into the bytes to store.
  package let encode: @Sendable (Value) throws -> Data
  /// Turns stored bytes back into a value.
  package let decode: @Sendable (Data) throws -> Value
  /// Makes a future that has succeeded with a value. Built where `Value` is a
  /// concrete type (as in ``data``), it makes futures without looking up
  /// generic type metadata at run time, which a get otherwise spends about a
  /// microsecond on.
  package let succeeded: @Sendable (Value) -> Future<Value>
  /// Makes a future that has failed with an error (see ``succeeded``).
  package let failed: @Sendable (any Error) -> Future<Value>

  /// The tag of values stored byte for byte.
  package static var rawEncoding: UInt16 { 1 }
  /// The tag of values stored as JSON.
  package static var jsonEncoding: UInt16 { 2 }

  package init(
    encoding: UInt16,
    encode: @escaping @Sendable (Value) throws -> Data,
    decode: @escaping @Sendable (Data) throws -> Value,
    succeeded: @escaping @Sendable (Value) -> Future<Value> = { Future($0) },
    failed: @escaping @Sendable (any Error) -> Future<Value> = { Future($0) }
  ) {
    self.encoding = encoding
    self.encode = encode
    self.decode = decode
    self.succeeded = succeeded
    self.failed = failed
  }
}

/// The value could not be stored in, or read from, the form its coder expects.
struct DiskValueCoderMismatch: Error, CustomStringConvertible {
  let description: String
}

extension DiskValueCoder where Value == Data {
  /// Stores `Data` byte for byte.
  package static var data: DiskValueCoder<Data> {
    DiskValueCoder(
      encoding: rawEncoding,
      encode: { $0 },
      decode: { $0 },
      succeeded: { Future($0) },
      failed: { Future($0) }
    )
  }
}

extension DiskValueCoder where Value: Codable {
  /// Stores `Data` byte for byte (also when `Value` is only known to be `Data`
  /// at run time) and every other value as JSON.
  package static var codable: DiskValueCoder<Value> {
    if Value.self == Data.self {
      return DiskValueCoder(
        encoding: rawEncoding,
        encode: { value in
          guard let data = value as? Data else {
            throw DiskValueCoderMismatch(description: "expected Data, got \(type(of: value))")
          }
          return data
        },
        decode: { data in
          guard let value = data as? Value else {
            throw DiskValueCoderMismatch(description: "cannot read Data as \(Value.self)")
          }
          return value
        }
      )
    }
    return DiskValueCoder(
      encoding: jsonEncoding,
      encode: { value in try JSONEncoder().encode(value) },
      decode: { data in try JSONDecoder().decode(Value.self, from: data) }
    )
  }
}
