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

  /// Creates a transformer from two async functions, each started at once on the
  /// calling thread:
  ///
  /// ```swift
  /// let json = TwoWayTransformationBox<Data, Profile>(
  ///   transform: { data in try JSONDecoder().decode(Profile.self, from: data) },
  ///   inverseTransform: { profile in try JSONEncoder().encode(profile) })
  /// ```
  @inlinable
  public init(
    transform: @escaping @Sendable (TypeIn) async throws -> TypeOut,
    inverseTransform: @escaping @Sendable (TypeOut) async throws -> TypeIn
  ) {
    transformClosure = { value in startAsync { try await transform(value) } }
    inverseTransformClosure = { value in startAsync { try await inverseTransform(value) } }
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
