/// Transforms values of one type into another, asynchronously and possibly failing.
public protocol OneWayTransformer<TypeIn, TypeOut>: Sendable {
  /// The type of the input values.
  associatedtype TypeIn: Sendable
  /// The type of the output values.
  associatedtype TypeOut: Sendable

  /// Transforms `value`; the future fails when the value cannot be transformed.
  func transform(_ value: TypeIn) -> Future<TypeOut>
}
