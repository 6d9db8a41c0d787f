import Foundation

extension DateFormatter: TwoWayTransformer {
  public typealias TypeIn = Date
  public typealias TypeOut = String

  /// Formats the date with this formatter; fails with
  /// ``FetchError/valueTransformationFailed`` when the formatter cannot express it
  /// (a date that is not finite or lies beyond the calendar's range).
  public func transform(_ value: Date) -> Future<String> {
    // The formatter answers "" for what it cannot format; no date formats to "".
    let text = value.timeIntervalSinceReferenceDate.isFinite ? string(from: value) : ""
    return text.isEmpty ? Future(FetchError.valueTransformationFailed) : Future(text)
  }

  /// Parses the string with this formatter; fails with
  /// ``FetchError/valueTransformationFailed`` when it is not a date in this format.
  public func inverseTransform(_ value: String) -> Future<Date> {
    Future(value: date(from: value), error: FetchError.valueTransformationFailed)
  }
}
