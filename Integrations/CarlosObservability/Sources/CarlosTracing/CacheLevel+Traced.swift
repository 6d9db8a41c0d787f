#if Observability
import Carlos
import Tracing

extension CacheLevel {
  /// This level with a span recorded for every get (see ``TracedCache``), named
  /// `name` (the level's own name by default), by `tracer` (the tracer bootstrapped
  /// in `InstrumentationSystem` by default; none means no spans and no cost).
  ///
  /// ```swift
  /// let cache = (memory.traced() >>> disk.traced() >>> origin.traced("origin")).traced("pages")
  /// ```
  public func traced(_ name: String? = nil, tracer: (any Tracer)? = nil) -> TracedCache<Self> {
    TracedCache(self, name: name, tracer: tracer)
  }
}
#endif
