import Carlos

extension HTTPCacheEntry: ExpensiveObject {
  /// The sum of the variants' costs.
  public var cost: Int { variants.reduce(16) { $0 + $1.cost } }
}
