#if HTTPCaching
import Carlos

extension HTTPCacheEntry: ExpensiveObject {
  /// What keeping the entry in memory costs, in bytes: the sum of its
  /// variants' costs and ``costOverhead``.
  public var cost: Int { variants.reduce(Self.costOverhead) { $0 + $1.cost } }

  /// What an entry costs beyond its variants: the array that holds them, 64 bytes.
  public static let costOverhead = 64
}
#endif
