import Foundation

/// Transforms `Data` into `String` and back with a text encoding.
public struct StringTransformer: TwoWayTransformer {
  public typealias TypeIn = Data
  public typealias TypeOut = String

  /// The encoding used both ways.
  public let encoding: String.Encoding

  /// Creates a transformer for `encoding` (UTF-8 by default).
  public init(encoding: String.Encoding = .utf8) {
    self.encoding = encoding
  }

  /// Decodes the data; fails with ``FetchError/valueTransformationFailed`` when it is not valid text.
  public func transform(_ value: Data) -> Future<String> {
    Future(
      value: String(data: value, encoding: encoding), error: FetchError.valueTransformationFailed)
  }

  /// Encodes the string; fails with ``FetchError/valueTransformationFailed`` when the
  /// encoding cannot represent it.
  public func inverseTransform(_ value: String) -> Future<Data> {
    Future(value: value.data(using: encoding), error: FetchError.valueTransformationFailed)
  }
}
