/// A ``OneWayTransformer`` made of a closure.
public struct OneWayTransformationBox<TypeIn: Sendable, TypeOut: Sendable>: OneWayTransformer {
  @usableFromInline let transformClosure: @Sendable (TypeIn) -> Future<TypeOut>

  /// Creates a transformer that answers `transform(_:)` with `transform`.
  @inlinable
  public init(transform: @escaping @Sendable (TypeIn) -> Future<TypeOut>) {
    transformClosure = transform
  }

  /// Creates a transformer that answers `transform(_:)` with the async function
  /// `transform`, started at once on the calling thread.
  @inlinable
  public init(transform: @escaping @Sendable (TypeIn) async throws -> TypeOut) {
    transformClosure = { value in startAsync { try await transform(value) } }
  }

  /// Transforms `value`.
  @inlinable
  public func transform(_ value: TypeIn) -> Future<TypeOut> {
    transformClosure(value)
  }
}
