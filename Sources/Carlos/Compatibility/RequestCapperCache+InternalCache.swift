extension RequestCapperCache {
  /// The Carlos 0.x spelling of ``init(_:limit:)``.
  @available(*, deprecated, renamed: "init(_:limit:)")
  @inlinable
  public convenience init(internalCache: Inner, requestCap: Int) {
    self.init(internalCache, limit: requestCap)
  }
}
