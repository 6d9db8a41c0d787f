/// How a ``MemoryCacheLevel`` chooses what to drop when it is full.
public enum EvictionPolicy: Sendable, Hashable, CustomStringConvertible {
  /// Least recently used: the value read or stored longest ago leaves first.
  /// Simple and predictable; good when recent values are the ones asked again.
  case lru
  /// W-TinyLFU with a fixed admission window of 1 % of the capacity: new values
  /// enter a small LRU window, and leave it for the main area only when they have
  /// been asked for more often than the value they would replace. Resists scans
  /// and loops, but does poorly on workloads where only recency matters.
  case tinyLFU
  /// W-TinyLFU whose admission window grows or shrinks with the observed hit
  /// ratio, so it behaves like LRU on recency-bound workloads and like TinyLFU on
  /// frequency-bound ones. The default.
  case adaptiveTinyLFU

  /// A short name for the policy, for printing.
  public var description: String {
    switch self {
    case .lru: return "LRU"
    case .tinyLFU: return "W-TinyLFU (1% window)"
    case .adaptiveTinyLFU: return "adaptive W-TinyLFU"
    }
  }
}
