extension CacheLevel {
  /// Returns a level that runs every value it gets through `transformer`.
  /// Sets and removals are not processed.
  @inlinable
  public func postProcess<Transformer: OneWayTransformer>(
    _ transformer: Transformer
  ) -> BasicCache<KeyType, OutputType>
  where Transformer.TypeIn == OutputType, Transformer.TypeOut == OutputType {
    BasicCache(
      forwardingTo: self,
      get: { key in self.get(key).flatMap { transformer.transform($0) } },
      getWithSource: { key in
        self.getWithSource(key).flatMap { answer in
          transformer.transform(answer.value).map { answer.with(value: $0) }
        }
      }
    )
  }

  /// Returns a level that runs every value it gets, with its key, through
  /// `transformer`. Sets are not processed.
  @inlinable
  public func conditionedPostProcess<Transformer: ConditionedOneWayTransformer>(
    _ transformer: Transformer
  ) -> BasicCache<KeyType, OutputType>
  where
    Transformer.KeyType == KeyType, Transformer.TypeIn == OutputType,
    Transformer.TypeOut == OutputType
  {
    BasicCache(
      forwardingTo: self,
      get: { key in
        self.get(key).flatMap { transformer.conditionalTransform(key: key, value: $0) }
      },
      getWithSource: { key in
        self.getWithSource(key).flatMap { answer in
          transformer.conditionalTransform(key: key, value: answer.value).map {
            answer.with(value: $0)
          }
        }
      }
    )
  }

  /// Returns a level whose values are transformed with knowledge of their key:
  /// forward on get, inverse on set.
  @inlinable
  public func conditionedValueTransformation<Transformer: ConditionedTwoWayTransformer>(
    transformer: Transformer
  ) -> BasicCache<KeyType, Transformer.TypeOut>
  where Transformer.KeyType == KeyType, Transformer.TypeIn == OutputType {
    BasicCache(
      getClosure: { key in
        self.get(key).flatMap { transformer.conditionalTransform(key: key, value: $0) }
      },
      setClosure: { value, key in
        transformer.conditionalInverseTransform(key: key, value: value)
          .flatMap { self.set($0, forKey: key) }
      },
      clearClosure: { self.clear() },
      memoryClosure: { self.onMemoryWarning() },
      removeClosure: { key in self.remove(key) },
      expiringSetClosure: { value, key, expiry in
        transformer.conditionalInverseTransform(key: key, value: value)
          .flatMap { self.set($0, forKey: key, expiry: expiry) }
      },
      removeExpiredClosure: { self.removeExpired() },
      sourceClosure: { key in
        self.getWithSource(key).flatMap { answer in
          transformer.conditionalTransform(key: key, value: answer.value).map {
            answer.with(value: $0)
          }
        }
      }
    )
  }
}
