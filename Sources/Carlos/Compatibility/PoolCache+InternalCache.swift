extension PoolCache {
  /// The Carlos 0.x spelling of ``init(_:)``.
  @available(*, deprecated, renamed: "init(_:)")
  @inlinable
  public convenience init(internalCache: Inner) {
    self.init(internalCache)
  }
}
