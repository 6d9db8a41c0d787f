extension CacheLevel {
  /// Returns a level whose values are transformed: `transform` on get,
  /// `inverseTransform` on set (with or without an expiry). A failing transformation
  /// fails the operation with its error. remove, clear and removeExpired pass through.
  @inlinable
  public func transformValues<Transformer: TwoWayTransformer>(
    _ transformer: Transformer
  ) -> BasicCache<KeyType, Transformer.TypeOut> where Transformer.TypeIn == OutputType {
    BasicCache(
      getClosure: { key in self.get(key).flatMap { transformer.transform($0) } },
      setClosure: { value, key in
        transformer.inverseTransform(value).flatMap { self.set($0, forKey: key) }
      },
      clearClosure: { self.clear() },
      memoryClosure: { self.onMemoryWarning() },
      removeClosure: { key in self.remove(key) },
      expiringSetClosure: { value, key, expiry in
        transformer.inverseTransform(value).flatMap { self.set($0, forKey: key, expiry: expiry) }
      },
      removeExpiredClosure: { self.removeExpired() },
      sourceClosure: { key in
        self.getWithSource(key).flatMap { answer in
          transformer.transform(answer.value).map { answer.with(value: $0) }
        }
      }
    )
  }
}

extension Fetcher {
  /// Returns a fetcher whose values are transformed on get; a fetcher stores
  /// nothing, so a one-way transformer suffices.
  @inlinable
  public func transformValues<Transformer: OneWayTransformer>(
    _ transformer: Transformer
  ) -> BasicFetcher<KeyType, Transformer.TypeOut> where Transformer.TypeIn == OutputType {
    BasicFetcher { key in self.get(key).flatMap { transformer.transform($0) } }
  }

  /// Returns a fetcher whose values are transformed on get with the transformer's
  /// forward direction.
  @inlinable
  public func transformValues<Transformer: TwoWayTransformer>(
    _ transformer: Transformer
  ) -> BasicFetcher<KeyType, Transformer.TypeOut> where Transformer.TypeIn == OutputType {
    BasicFetcher { key in self.get(key).flatMap { transformer.transform($0) } }
  }

  /// Returns a fetcher whose values are transformed on get by `transform`.
  @inlinable
  public func transformValues<NewValue: Sendable>(
    _ transform: @escaping @Sendable (OutputType) -> Future<NewValue>
  ) -> BasicFetcher<KeyType, NewValue> {
    BasicFetcher { key in self.get(key).flatMap(transform) }
  }

  /// Returns a fetcher whose values are transformed on get by the async function
  /// `transform`.
  @inlinable
  public func transformValues<NewValue: Sendable>(
    _ transform: @escaping @Sendable (OutputType) async throws -> NewValue
  ) -> BasicFetcher<KeyType, NewValue> {
    transformValues(OneWayTransformationBox(transform: transform))
  }
}
