extension CacheLevel {
  /// Gets every key at once and returns the values that were found, in the
  /// order of `keys`; keys whose get failed are left out. Never fails.
  ///
  /// Cancelling the returned future cancels every get still running.
  public func batchGetSome(_ keys: [KeyType]) -> Future<[OutputType]> {
    keys.map { get($0) }.mergeSome()
  }
}
