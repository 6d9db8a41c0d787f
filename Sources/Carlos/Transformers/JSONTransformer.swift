import Foundation

/// Transforms JSON `Data` into a `Codable` value and back.
public struct JSONTransformer<Value: Codable & Sendable>: TwoWayTransformer {
  public typealias TypeIn = Data
  public typealias TypeOut = Value

  /// Creates a JSON transformer for `Value`.
  public init() {}

  /// Decodes the value; fails with the decoder's error when the data is not valid JSON for `Value`.
  public func transform(_ value: Data) -> Future<Value> {
    do {
      return Future(try JSONDecoder().decode(Value.self, from: value))
    } catch {
      return Future(error)
    }
  }

  /// Encodes the value as JSON; fails with the encoder's error when it cannot.
  public func inverseTransform(_ value: Value) -> Future<Data> {
    do {
      return Future(try JSONEncoder().encode(value))
    } catch {
      return Future(error)
    }
  }
}
