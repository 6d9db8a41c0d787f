extension OneWayTransformer {
  /// Returns a transformer that applies this one, then `next`.
  @inlinable
  public func compose<Next: OneWayTransformer>(
    _ next: Next
  ) -> OneWayTransformationBox<TypeIn, Next.TypeOut> where Next.TypeIn == TypeOut {
    OneWayTransformationBox { value in self.transform(value).flatMap { next.transform($0) } }
  }
}

extension TwoWayTransformer {
  /// Returns a transformer that applies this one, then `next`; its inverse
  /// applies `next`'s inverse, then this one's.
  @inlinable
  public func compose<Next: TwoWayTransformer>(
    _ next: Next
  ) -> TwoWayTransformationBox<TypeIn, Next.TypeOut> where Next.TypeIn == TypeOut {
    TwoWayTransformationBox(
      transform: { value in self.transform(value).flatMap { next.transform($0) } },
      inverseTransform: { value in
        next.inverseTransform(value).flatMap { self.inverseTransform($0) }
      }
    )
  }

  /// Returns the transformer that swaps the two directions.
  /// `t.invert().invert()` behaves like `t`.
  @inlinable
  public func invert() -> TwoWayTransformationBox<TypeOut, TypeIn> {
    TwoWayTransformationBox(transform: inverseTransform, inverseTransform: transform)
  }
}

/// Composes two one-way transformers: `first >>> second`.
@inlinable
public func >>> <First: OneWayTransformer, Second: OneWayTransformer>(
  first: First,
  second: Second
) -> OneWayTransformationBox<First.TypeIn, Second.TypeOut> where First.TypeOut == Second.TypeIn {
  first.compose(second)
}

/// Composes two two-way transformers: `first >>> second`, inverted in reverse order.
@inlinable
public func >>> <First: TwoWayTransformer, Second: TwoWayTransformer>(
  first: First,
  second: Second
) -> TwoWayTransformationBox<First.TypeIn, Second.TypeOut> where First.TypeOut == Second.TypeIn {
  first.compose(second)
}

/// Composes a one-way transformer with a transformation closure.
@inlinable
public func >>> <First: OneWayTransformer, Out: Sendable>(
  first: First,
  second: @escaping @Sendable (First.TypeOut) -> Future<Out>
) -> OneWayTransformationBox<First.TypeIn, Out> {
  first.compose(OneWayTransformationBox(transform: second))
}

/// Composes a transformation closure with a one-way transformer.
@inlinable
public func >>> <In: Sendable, Second: OneWayTransformer>(
  first: @escaping @Sendable (In) -> Future<Second.TypeIn>,
  second: Second
) -> OneWayTransformationBox<In, Second.TypeOut> {
  OneWayTransformationBox(transform: first).compose(second)
}
