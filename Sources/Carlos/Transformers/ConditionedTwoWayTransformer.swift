/// A ``ConditionedOneWayTransformer`` that can also transform back.
public protocol ConditionedTwoWayTransformer<KeyType, TypeIn, TypeOut>: ConditionedOneWayTransformer
{
  /// Transforms `value`, stored under `key`, back into the input type.
  func conditionalInverseTransform(key: KeyType, value: TypeOut) -> Future<TypeIn>
}

extension ConditionedTwoWayTransformer {
  /// Returns the transformer that swaps the two directions.
  @inlinable
  public func invert() -> ConditionedTwoWayTransformationBox<KeyType, TypeOut, TypeIn> {
    ConditionedTwoWayTransformationBox(
      conditionalTransformClosure: conditionalInverseTransform,
      conditionalInverseTransformClosure: conditionalTransform
    )
  }
}

/// A ``ConditionedTwoWayTransformer`` made of two closures.
public struct ConditionedTwoWayTransformationBox<
  Key: Sendable, TypeIn: Sendable, TypeOut: Sendable
>:
  ConditionedTwoWayTransformer
{
  public typealias KeyType = Key

  @usableFromInline let transformClosure: @Sendable (Key, TypeIn) -> Future<TypeOut>
  @usableFromInline let inverseTransformClosure: @Sendable (Key, TypeOut) -> Future<TypeIn>

  /// Creates a transformer from its two directions, each given the key and the value.
  @inlinable
  public init(
    conditionalTransformClosure: @escaping @Sendable (Key, TypeIn) -> Future<TypeOut>,
    conditionalInverseTransformClosure: @escaping @Sendable (Key, TypeOut) -> Future<TypeIn>
  ) {
    transformClosure = conditionalTransformClosure
    inverseTransformClosure = conditionalInverseTransformClosure
  }

  /// Creates a transformer that ignores the key and applies `transformer` both ways.
  @inlinable
  public init<Transformer: TwoWayTransformer>(transformer: Transformer)
  where Transformer.TypeIn == TypeIn, Transformer.TypeOut == TypeOut {
    transformClosure = { _, value in transformer.transform(value) }
    inverseTransformClosure = { _, value in transformer.inverseTransform(value) }
  }

  /// Transforms `value`, stored under `key`.
  @inlinable
  public func conditionalTransform(key: Key, value: TypeIn) -> Future<TypeOut> {
    transformClosure(key, value)
  }

  /// Transforms `value`, stored under `key`, back.
  @inlinable
  public func conditionalInverseTransform(key: Key, value: TypeOut) -> Future<TypeIn> {
    inverseTransformClosure(key, value)
  }
}
