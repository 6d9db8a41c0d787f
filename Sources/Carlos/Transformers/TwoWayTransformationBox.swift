/// A ``TwoWayTransformer`` made of two closures.
public struct TwoWayTransformationBox<TypeIn: Sendable, TypeOut: Sendable>: TwoWayTransformer {
  @usableFromInline let transformClosure: @Sendable (TypeIn) -> Future<TypeOut>
  @usableFromInline let inverseTransformClosure: @Sendable (TypeOut) -> Future<TypeIn>

  /// Creates a transformer from its two directions.
  @inlinable
  public init(
    transform: @escaping @Sendable (TypeIn) -> Future<TypeOut>,
    inverseTransform: @escaping @Sendable (TypeOut) -> Future<TypeIn>
  ) {
    transformClosure = transform
    inverseTransformClosure = inverseTransform
  }

  /// Creates a box with the two directions of `transformer`.
  @inlinable
  public init<Transformer: TwoWayTransformer>(_ transformer: Transformer)
  where Transformer.TypeIn == TypeIn, Transformer.TypeOut == TypeOut {
    self.init(transform: transformer.transform, inverseTransform: transformer.inverseTransform)
  }

  /// Transforms `value`.
  @inlinable
  public func transform(_ value: TypeIn) -> Future<TypeOut> {
    transformClosure(value)
  }

  /// Transforms `value` back.
  @inlinable
  public func inverseTransform(_ value: TypeOut) -> Future<TypeIn> {
    inverseTransformClosure(value)
  }
}
