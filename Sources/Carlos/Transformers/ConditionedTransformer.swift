extension OneWayTransformer {
  /// Returns a transformer that transforms only values for which `condition`
  /// succeeds with `true`; others fail with ``FetchError/conditionNotSatisfied``.
  @inlinable
  public func conditioned(
    _ condition: @escaping @Sendable (TypeIn) -> Future<Bool>
  ) -> OneWayTransformationBox<TypeIn, TypeOut> {
    OneWayTransformationBox { value in
      conditionally(condition(value)) { self.transform(value) }
    }
  }
}

extension TwoWayTransformer {
  /// Returns a transformer whose forward direction runs only when `condition`
  /// holds and whose inverse runs only when `inverseCondition` holds; otherwise
  /// they fail with ``FetchError/conditionNotSatisfied``.
  @inlinable
  public func conditioned(
    _ condition: @escaping @Sendable (TypeIn) -> Future<Bool>,
    inverseCondition: @escaping @Sendable (TypeOut) -> Future<Bool>
  ) -> TwoWayTransformationBox<TypeIn, TypeOut> {
    TwoWayTransformationBox(
      transform: { value in conditionally(condition(value)) { self.transform(value) } },
      inverseTransform: { value in
        conditionally(inverseCondition(value)) { self.inverseTransform(value) }
      }
    )
  }
}

/// Runs `work` when `condition` succeeds with `true`.
@inlinable
func conditionally<T: Sendable>(
  _ condition: Future<Bool>,
  _ work: @escaping @Sendable () -> Future<T>
) -> Future<T> {
  condition.flatMap { (allowed: Bool) -> Future<T> in
    allowed ? work() : Future(FetchError.conditionNotSatisfied)
  }
}
