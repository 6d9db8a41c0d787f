extension CacheLevel {
  /// Returns this level as a ``BasicCache``; a `BasicCache` is returned as it is.
  ///
  /// Useful to give one concrete type to levels built in different ways, and to
  /// turn an `any CacheLevel<K, V>` into a concrete value.
  public func normalize() -> BasicCache<KeyType, OutputType> {
    if let basic = self as? BasicCache<KeyType, OutputType> { return basic }
    return BasicCache(forwardingTo: self)
  }
}
