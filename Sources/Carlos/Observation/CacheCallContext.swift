import Synchronization

/// A value that instrumentation (such as CarlosTracing's spans) attaches to a get, and
/// that follows it into the levels the get reaches later.
///
/// A composition asks its lower level from a callback, after the upper level missed,
/// often on another thread: task-local values bound around the first call are gone
/// by then. While ``isActive`` is true, a composition captures ``current`` when its
/// upper level misses and binds it again around the call to the lower level, so
/// instrumentation of the lower level sees the context of the get that led to it.
/// While it is false (the default) compositions neither read nor bind it.
public enum CacheCallContext {
  /// The context of the get being made on this task or thread, if any.
  @TaskLocal public static var current: (any Sendable)?

  @usableFromInline
  static let active = Atomic<Bool>(false)

  /// Whether compositions carry ``current`` to their lower levels. Instrumentation
  /// sets it when it starts recording; it is never cleared by Carlos.
  public static var isActive: Bool {
    get { active.load(ordering: .relaxed) }
    set { active.store(newValue, ordering: .relaxed) }
  }

  /// ``current`` when ``isActive``, else nil: what a composition keeps for later.
  @inlinable
  static func capture() -> (any Sendable)? {
    active.load(ordering: .relaxed) ? current : nil
  }

  /// Runs `body` with `context` bound as ``current`` (just `body` when it is nil).
  @inlinable
  static func run<T>(with context: (any Sendable)?, _ body: () -> T) -> T {
    guard let context else { return body() }
    return $current.withValue(context) { body() }
  }
}
