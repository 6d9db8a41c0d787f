#if HTTPCaching
import Carlos

extension HTTPCacheKey: ExpensiveObject {
  /// What keeping the key in memory costs, in bytes: its method's and URI's
  /// UTF-8 bytes plus ``costOverhead``, so that a memory level weighing keys
  /// with their values bounds the memory that long URLs take.
  public var cost: Int { method.utf8.count + uri.utf8.count + Self.costOverhead }

  /// What a key costs beyond its bytes: its two strings, their storage headers
  /// and allocation rounding; 96 bytes, as measured on 64-bit Linux.
  public static let costOverhead = 96
}
#endif
