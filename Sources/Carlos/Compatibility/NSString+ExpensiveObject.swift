import Foundation

extension NSString: ExpensiveObject {
  /// The number of UTF-16 code units (`length`), as in Carlos 0.x.
  public var cost: Int { length }
}
