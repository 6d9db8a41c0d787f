import Foundation

/// A value with a cost, used by ``MemoryCacheLevel`` to bound what it holds.
public protocol ExpensiveObject {
  /// The cost of keeping the value in memory; for data, its size in bytes.
  var cost: Int { get }
}

extension Data: ExpensiveObject {
  /// The number of bytes.
  public var cost: Int { count }
}

extension String: ExpensiveObject {
  /// The number of UTF-8 bytes.
  public var cost: Int { utf8.count }
}

extension Int: ExpensiveObject {
  /// Always 1.
  public var cost: Int { 1 }
}

extension Double: ExpensiveObject {
  /// Always 1.
  public var cost: Int { 1 }
}

extension Float: ExpensiveObject {
  /// Always 1.
  public var cost: Int { 1 }
}

extension Bool: ExpensiveObject {
  /// Always 1.
  public var cost: Int { 1 }
}

extension NSNumber: ExpensiveObject {
  /// Always 1.
  public var cost: Int { 1 }
}

extension Array: ExpensiveObject where Element: ExpensiveObject {
  /// The sum of the elements' costs, at least 1.
  public var cost: Int { Swift.max(1, reduce(0) { $0 + $1.cost }) }
}
