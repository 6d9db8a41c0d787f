/// A ``OneWayTransformer`` that can also transform back.
public protocol TwoWayTransformer<TypeIn, TypeOut>: OneWayTransformer {
  /// Transforms `value` back into the input type; the future fails when it cannot.
  func inverseTransform(_ value: TypeOut) -> Future<TypeIn>
}
