/// Transforms values with knowledge of the key they are stored under.
public protocol ConditionedOneWayTransformer<KeyType, TypeIn, TypeOut>: Sendable {
  /// The type of the keys.
  associatedtype KeyType: Sendable
  /// The type of the input values.
  associatedtype TypeIn: Sendable
  /// The type of the output values.
  associatedtype TypeOut: Sendable

  /// Transforms `value`, stored under `key`.
  func conditionalTransform(key: KeyType, value: TypeIn) -> Future<TypeOut>
}

/// A ``ConditionedOneWayTransformer`` made of a closure.
public struct ConditionedOneWayTransformationBox<
  Key: Sendable, TypeIn: Sendable, TypeOut: Sendable
>:
  ConditionedOneWayTransformer
{
  public typealias KeyType = Key

  @usableFromInline let transformClosure: @Sendable (Key, TypeIn) -> Future<TypeOut>

  /// Creates a transformer that answers with `conditionalTransformClosure(key, value)`.
  @inlinable
  public init(conditionalTransformClosure: @escaping @Sendable (Key, TypeIn) -> Future<TypeOut>) {
    transformClosure = conditionalTransformClosure
  }

  /// Creates a transformer that ignores the key and applies `transformer`.
  @inlinable
  public init<Transformer: OneWayTransformer>(transformer: Transformer)
  where Transformer.TypeIn == TypeIn, Transformer.TypeOut == TypeOut {
    transformClosure = { _, value in transformer.transform(value) }
  }

  /// Transforms `value`, stored under `key`.
  @inlinable
  public func conditionalTransform(key: Key, value: TypeIn) -> Future<TypeOut> {
    transformClosure(key, value)
  }
}
