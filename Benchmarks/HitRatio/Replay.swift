import Carlos

/// Drives a real ``MemoryCacheLevel`` with a trace.
enum Replay {
  /// Per request of `trace`, 1 when it hit a fresh cache of `capacity` unit-cost
  /// entries under `policy`, 0 when it missed (and was then stored).
  static func outcomes(_ trace: [Int64], capacity: Int, policy: EvictionPolicy) -> [UInt8] {
    let cache = MemoryCacheLevel<Int64, Int>(capacity: capacity, policy: policy)
    var outcomes: [UInt8] = []
    outcomes.reserveCapacity(trace.count)
    for key in trace {
      if case .success = cache.get(key).result {
        outcomes.append(1)
      } else {
        outcomes.append(0)
        cache.set(1, forKey: key)
      }
    }
    return outcomes
  }
}
