import Foundation

/// One completed future, made once per group of threads: a level hands the same
/// answer to many calls (a stored value's acknowledgement, a miss), and if every
/// thread returned the one object, every call on every core would write its
/// reference count, on one cache line. Each thread number picks its own copy.
@usableFromInline
struct StripedFuture<Value: Sendable>: Sendable {
  /// The copies, one per thread number modulo their count (a power of two).
  @usableFromInline let copies: [Future<Value>]

  /// Makes `make()` once per group of threads: four per core, at most 64.
  init(_ make: () -> Future<Value>) {
    let wanted = Swift.min(64, 4 * Swift.max(1, ProcessInfo.processInfo.activeProcessorCount))
    var count = 1
    while count < wanted { count <<= 1 }
    copies = (0..<count).map { _ in make() }
  }

  /// The copy for thread number `thread` (see ``threadStripe()``).
  @inlinable
  func future(for thread: Int) -> Future<Value> {
    copies[thread & (copies.count &- 1)]
  }
}
