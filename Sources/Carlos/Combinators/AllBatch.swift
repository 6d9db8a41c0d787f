/// Why a level made with ``CacheLevel/allBatch()`` refused a set.
public enum BatchError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `set` was given a different number of values than keys.
  case keyValueCountMismatch(keys: Int, values: Int)

  /// A human-readable description.
  public var description: String {
    switch self {
    case .keyValueCountMismatch(let keys, let values):
      return "a batch set needs one value per key, but got \(keys) keys and \(values) values"
    }
  }
}

extension CacheLevel {
  /// Returns a level that gets and sets a whole list of keys at once.
  ///
  /// - get asks this level for every key concurrently and succeeds with the
  ///   values in key order once all are found. It fails as soon as one key
  ///   fails, with that key's error, and cancels the gets still running;
  ///   cancelling it cancels them all. An empty list succeeds with no values.
  /// - set stores the i-th value under the i-th key and succeeds when every
  ///   store succeeds; it fails with ``BatchError/keyValueCountMismatch(keys:values:)``
  ///   when the lists have different lengths, storing nothing.
  /// - set with an expiry stores every value with that expiry; remove removes every
  ///   key and succeeds when every removal succeeds.
  /// - clear, removeExpired and onMemoryWarning reach this level.
  public func allBatch() -> BasicCache<[KeyType], [OutputType]> {
    BasicCache(
      getClosure: { keys in
        keys.map { self.get($0) }.mergeAll()
      },
      setClosure: { values, keys in
        guard keys.count == values.count else {
          return Future(BatchError.keyValueCountMismatch(keys: keys.count, values: values.count))
        }
        return zip(keys, values).map { key, value in self.set(value, forKey: key) }.all()
      },
      clearClosure: { self.clear() },
      memoryClosure: { self.onMemoryWarning() },
      removeClosure: { keys in keys.map { self.remove($0) }.all() },
      expiringSetClosure: { values, keys, expiry in
        guard keys.count == values.count else {
          return Future(BatchError.keyValueCountMismatch(keys: keys.count, values: values.count))
        }
        return zip(keys, values).map { key, value in self.set(value, forKey: key, expiry: expiry) }
          .all()
      },
      removeExpiredClosure: { self.removeExpired() }
    )
  }
}
