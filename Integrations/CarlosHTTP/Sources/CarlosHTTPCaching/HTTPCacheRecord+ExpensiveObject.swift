import Carlos

extension HTTPCacheRecord: ExpensiveObject {
  /// The stored response's cost.
  public var cost: Int { response.cost + 64 }
}
