import Foundation

extension NSData: ExpensiveObject {
  /// The number of bytes (`length`), as in Carlos 0.x.
  public var cost: Int { length }
}
