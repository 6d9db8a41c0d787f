extension CacheLevel {
  /// Gets every key at once and returns the values that were found, in the order of
  /// `keys`. A key whose get fails or is cancelled is left out, and the others still
  /// succeed: the batch never fails (Carlos 0.10's contract; `mergeSome()` differs:
  /// there a cancelled future cancels the merge, as in PiedPiper).
  ///
  /// Cancelling the returned future cancels every get still running.
  public func batchGetSome(_ keys: [KeyType]) -> Future<[OutputType]> {
    if keys.isEmpty { return Future([]) }
    let gets = keys.map { get($0) }
    let batch = Promise<[OutputType]>()
    batch.onCancel { gets.forEach { $0.cancel() } }
    let slots = Lock<(values: [OutputType?], remaining: Int)>(
      (Array(repeating: nil, count: gets.count), gets.count))
    for (index, get) in gets.enumerated() {
      get.onCompletion { result in
        let values: [OutputType]? = slots.withLock { slots in
          slots.values[index] = result.value
          slots.remaining -= 1
          return slots.remaining == 0 ? slots.values.compactMap { $0 } : nil
        }
        if let values { batch.succeed(values) }
      }
    }
    return batch.future
  }
}
