import Foundation

extension NumberFormatter: TwoWayTransformer {
  public typealias TypeIn = NSNumber
  public typealias TypeOut = String

  /// Formats the number with this formatter; fails with
  /// ``FetchError/valueTransformationFailed`` when it cannot.
  public func transform(_ value: NSNumber) -> Future<String> {
    Future(value: string(from: value), error: FetchError.valueTransformationFailed)
  }

  /// Parses the string with this formatter; fails with
  /// ``FetchError/valueTransformationFailed`` when it is not a number in this format.
  public func inverseTransform(_ value: String) -> Future<NSNumber> {
    Future(value: number(from: value), error: FetchError.valueTransformationFailed)
  }
}
