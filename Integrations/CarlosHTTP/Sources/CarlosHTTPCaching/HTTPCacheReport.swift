#if HTTPCaching
import Synchronization

/// What an ``HTTPCache`` did for one request, for logs and counters: set one for
/// a task with ``$current`` and read it after the cache has answered.
public final class HTTPCacheReport: Sendable {
  /// The report of the request the current task asks the cache for, if any.
  @TaskLocal public static var current: HTTPCacheReport?

  private let collapsed = Atomic<Bool>(false)

  /// A report of nothing done yet.
  public init() {}

  /// Whether the request was answered with the stored outcome of another
  /// request's origin fetch, which it waited for (request collapsing).
  public var wasCollapsed: Bool { collapsed.load(ordering: .relaxed) }

  func markCollapsed() { collapsed.store(true, ordering: .relaxed) }
}
#endif
