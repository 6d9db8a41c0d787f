import Foundation

extension DateFormatter: TwoWayTransformer {
  public typealias TypeIn = Date
  public typealias TypeOut = String

  /// Formats the date with this formatter.
  public func transform(_ value: Date) -> Future<String> {
    Future(string(from: value))
  }

  /// Parses the string with this formatter; fails with
  /// ``FetchError/valueTransformationFailed`` when it is not a date in this format.
  public func inverseTransform(_ value: String) -> Future<Date> {
    Future(value: date(from: value), error: FetchError.valueTransformationFailed)
  }
}
