import Carlos

/// Drives a real ``MemoryCacheLevel`` with a trace.
enum Replay {
  /// The fraction of `trace`'s requests that hit a fresh cache of `capacity`
  /// unit-cost entries under `policy`: each request is a `get`, and a miss is
  /// followed by a `set`.
  static func hitRatio(_ trace: [Int64], capacity: Int, policy: EvictionPolicy) -> Double {
    let cache = MemoryCacheLevel<Int64, Int>(capacity: capacity, policy: policy)
    var hits = 0
    for key in trace {
      if case .success = cache.get(key).result {
        hits += 1
      } else {
        cache.set(1, forKey: key)
      }
    }
    return Double(hits) / Double(trace.count)
  }
}
