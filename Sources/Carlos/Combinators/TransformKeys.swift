extension CacheLevel {
  /// Returns a level keyed by the transformer's input: every key is transformed
  /// before it reaches this level (for get, set and remove). When the
  /// transformation fails, the operation fails with its error.
  @inlinable
  public func transformKeys<Transformer: OneWayTransformer>(
    _ transformer: Transformer
  ) -> BasicCache<Transformer.TypeIn, OutputType> where Transformer.TypeOut == KeyType {
    BasicCache(
      getClosure: { key in
        let transformed = transformer.transform(key)
        // Fast path: a key transformed at once needs no continuation closure.
        if case .success(let levelKey)? = transformed.result { return self.get(levelKey) }
        return transformed.flatMap { self.get($0) }
      },
      setClosure: { value, key in
        transformer.transform(key).flatMap { self.set(value, forKey: $0) }
      },
      clearClosure: { self.clear() },
      memoryClosure: { self.onMemoryWarning() },
      removeClosure: { key in transformer.transform(key).flatMap { self.remove($0) } },
      expiringSetClosure: { value, key, expiry in
        transformer.transform(key).flatMap { self.set(value, forKey: $0, expiry: expiry) }
      },
      removeExpiredClosure: { self.removeExpired() },
      sourceClosure: { key in transformer.transform(key).flatMap { self.getWithSource($0) } }
    )
  }

  /// Returns a level keyed by the closure's input: every key is transformed by
  /// `transform` before it reaches this level.
  @inlinable
  public func transformKeys<NewKey: Sendable>(
    _ transform: @escaping @Sendable (NewKey) -> Future<KeyType>
  ) -> BasicCache<NewKey, OutputType> {
    transformKeys(OneWayTransformationBox(transform: transform))
  }

  /// Returns a level keyed by the async function's input: every key is transformed
  /// by `transform` before it reaches this level; an error it throws fails the
  /// operation.
  @inlinable
  public func transformKeys<NewKey: Sendable>(
    _ transform: @escaping @Sendable (NewKey) async throws -> KeyType
  ) -> BasicCache<NewKey, OutputType> {
    transformKeys(OneWayTransformationBox(transform: transform))
  }
}
