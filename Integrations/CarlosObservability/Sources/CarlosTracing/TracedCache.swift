#if Observability
import Carlos
import Tracing

/// A level that records a span for every get of the level it wraps: its name, whether
/// it hit, which level answered, and the error when it failed. Create one with
/// ``Carlos/CacheLevel/traced(_:tracer:)``.
///
/// Spans nest: a get's span is the parent of the spans of the traced levels it
/// reaches, including a lower level asked later from a callback, and of spans that
/// the wrapped level starts itself (it runs with the span's `ServiceContext`). A get
/// made inside a span of the caller's is a child of that span.
///
/// Attributes: `carlos.level` (the level's name), `carlos.hit` (whether a value came
/// back), `carlos.source` (the name of the level that answered, on a hit),
/// `carlos.cancelled` (when the get was cancelled). A miss
/// (`FetchError.valueNotInCache`) is not an error; any other failure is recorded on
/// the span, whose status is then `.error`.
///
/// The tracer is the one given, or the one bootstrapped in `InstrumentationSystem`
/// when the level is created. Without one (a `NoOpTracer`), a get goes straight to
/// the wrapped level and costs nothing more. Sets, removes and clears pass through
/// without spans.
public final class TracedCache<Inner: CacheLevel>: CacheLevel {
  public typealias KeyType = Inner.KeyType
  public typealias OutputType = Inner.OutputType

  /// The wrapped level.
  public let inner: Inner
  /// The name in the spans' `carlos.level` attribute.
  public let name: String
  /// The tracer that records spans; nil when tracing is off.
  @usableFromInline let tracer: (any Tracer)?
  /// Whether `tracer` is set: one byte to test on the hot path.
  @usableFromInline let recording: Bool

  /// Wraps `inner`, naming it `name` (its own `levelName` by default), with spans
  /// recorded by `tracer` (the bootstrapped tracer by default).
  public init(_ inner: Inner, name: String? = nil, tracer: (any Tracer)? = nil) {
    self.inner = inner
    self.name = name ?? inner.levelName
    let chosen = tracer ?? InstrumentationSystem.tracer
    self.tracer = chosen is NoOpTracer ? nil : chosen
    recording = self.tracer != nil
    if recording { CacheCallContext.isActive = true }
  }

  /// The name in the spans (see ``CacheLevel/levelName``).
  public var levelName: String { name }

  /// Whether gets record spans.
  public var isRecording: Bool { recording }

  /// Gets the value from the wrapped level, in a span when tracing is on.
  @inlinable
  public func get(_ key: KeyType) -> Future<OutputType> {
    guard recording, let tracer else { return inner.get(key) }
    return traced(key, by: tracer).map { $0.value }
  }

  /// Gets the value with its source from the wrapped level, in a span when tracing is on.
  public func getWithSource(_ key: KeyType) -> Future<CacheAnswer<OutputType>> {
    guard let tracer else { return inner.getWithSource(key) }
    return traced(key, by: tracer)
  }

  /// Asks the wrapped level inside a new span, which ends when the get completes.
  @usableFromInline
  func traced(_ key: KeyType, by tracer: any Tracer) -> Future<CacheAnswer<OutputType>> {
    let parent =
      (CacheCallContext.current as? ServiceContext) ?? ServiceContext.current ?? .topLevel
    let span = tracer.startSpan("carlos.get", context: parent, ofKind: .internal)
    span.attributes["carlos.level"] = name
    let request = CacheCallContext.$current.withValue(span.context) {
      ServiceContext.$current.withValue(span.context) { inner.getWithSource(key) }
    }
    request.onCompletion { result in
      switch result {
      case .success(let answer):
        span.attributes["carlos.hit"] = true
        span.attributes["carlos.source"] = answer.source
      case .error(let error):
        span.attributes["carlos.hit"] = false
        if (error as? FetchError) != .valueNotInCache {
          span.recordError(error)
          span.setStatus(SpanStatus(code: .error))
        }
      case .cancelled:
        span.attributes["carlos.cancelled"] = true
      }
      span.end()
    }
    return request
  }

  /// Stores `value` in the wrapped level.
  @discardableResult
  public func set(_ value: OutputType, forKey key: KeyType) -> Future<Void> {
    inner.set(value, forKey: key)
  }

  /// Stores `value` in the wrapped level until `expiry`.
  @discardableResult
  public func set(_ value: OutputType, forKey key: KeyType, expiry: Expiry) -> Future<Void> {
    inner.set(value, forKey: key, expiry: expiry)
  }

  /// Removes `key` from the wrapped level.
  @discardableResult
  public func remove(_ key: KeyType) -> Future<Void> {
    inner.remove(key)
  }

  /// Removes the wrapped level's expired values.
  @discardableResult
  public func removeExpired() -> Future<Void> {
    inner.removeExpired()
  }

  /// Clears the wrapped level.
  public func clear() {
    inner.clear()
  }

  /// Passes the memory warning to the wrapped level.
  public func onMemoryWarning() {
    inner.onMemoryWarning()
  }
}
#endif
