#if Observability
import Carlos
import CarlosTracing
import Foundation
import InMemoryTracing
import Synchronization
import Testing
import Tracing

@Suite("TracedCache")
struct TracedCacheTests {
  struct OriginDown: Error {}

  /// A level that answers from another thread after a moment, as a disk or a network does.
  func slowOrigin(_ name: String, failing: Bool = false) -> BasicFetcher<String, String> {
    BasicFetcher(name: name) { key in
      try await Task.sleep(for: .milliseconds(5))
      if failing { throw OriginDown() }
      guard key != "missing" else { throw FetchError.valueNotInCache }
      return "value of \(key)"
    }
  }

  @Test("traced, a pooled level still shares one request among concurrent gets of a key")
  func pooledStaysPooled() async throws {
    let tracer = InMemoryTracer()
    let loads = Mutex(0)
    let origin = BasicFetcher<String, String> { key in
      loads.withLock { $0 += 1 }
      try await Task.sleep(for: .milliseconds(200))
      return "value of \(key)"
    }
    let cache = origin.pooled().traced("origin", tracer: tracer)
    let gets: [Future<String>] = (0..<20).map { _ in cache.get("k") }
    for get in gets { #expect(try await get.value == "value of k") }
    #expect(loads.withLock { $0 } == 1)
  }

  /// The finished spans, once there are `count` of them (or 30 s have passed).
  func spans(_ tracer: InMemoryTracer, count: Int) async throws -> [FinishedInMemorySpan] {
    let deadline = ContinuousClock.now + .seconds(30)
    while tracer.finishedSpans.count < count, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }
    return tracer.finishedSpans
  }

  func span(_ spans: [FinishedInMemorySpan], level: String) throws -> FinishedInMemorySpan {
    try #require(
      spans.first {
        $0.attributes["carlos.level"]?.toSpanAttribute() == "\(level)".toSpanAttribute()
      })
  }

  @Test(
    "a miss through memory >>> origin: one span for the cache, and children for each level it reached"
  )
  func spansPerLevel() async throws {
    let tracer = InMemoryTracer()
    let memory = MemoryCacheLevel<String, String>(capacity: 10)
    let cache =
      (memory.traced("memory", tracer: tracer)
      >>> slowOrigin("origin").traced("origin", tracer: tracer)).traced("pages", tracer: tracer)

    #expect(try await cache.get("a") == "value of a")
    let finished = try await spans(tracer, count: 3)
    #expect(finished.count == 3)
    let pages = try span(finished, level: "pages")
    let memorySpan = try span(finished, level: "memory")
    let origin = try span(finished, level: "origin")
    #expect(pages.parentSpanID == nil)
    #expect(memorySpan.parentSpanID == pages.spanID)
    #expect(
      origin.parentSpanID == pages.spanID, "the lower level, asked from a callback, is a child too")
    #expect(Set([pages.traceID, memorySpan.traceID, origin.traceID]).count == 1)
    #expect(memorySpan.attributes["carlos.hit"]?.toSpanAttribute() == false.toSpanAttribute())
    #expect(origin.attributes["carlos.hit"]?.toSpanAttribute() == true.toSpanAttribute())
    #expect(pages.attributes["carlos.source"]?.toSpanAttribute() == "origin".toSpanAttribute())
    #expect(pages.errors.isEmpty && memorySpan.errors.isEmpty, "a miss is not an error")

    tracer.clearFinishedSpans()
    #expect(try await cache.get("a") == "value of a")
    let hit = try await spans(tracer, count: 2)
    #expect(hit.count == 2, "a hit in memory reaches no other level")
    #expect(
      try span(hit, level: "pages").attributes["carlos.source"]?.toSpanAttribute()
        == "MemoryCacheLevel".toSpanAttribute())
  }

  @Test("a failure is recorded on the spans with an error status; a plain miss is not")
  func errors() async throws {
    let tracer = InMemoryTracer()
    let cache = slowOrigin("origin", failing: true).traced(tracer: tracer)
    await #expect(throws: OriginDown.self) { try await cache.get("a") }
    let failed = try #require(try await spans(tracer, count: 1).first)
    #expect(failed.errors.count == 1)
    #expect(failed.status?.code == .error)
    #expect(failed.attributes["carlos.hit"]?.toSpanAttribute() == false.toSpanAttribute())

    tracer.clearFinishedSpans()
    let missing = slowOrigin("origin").traced(tracer: tracer)
    await #expect(throws: FetchError.valueNotInCache) { try await missing.get("missing") }
    let miss = try #require(try await spans(tracer, count: 1).first)
    #expect(miss.errors.isEmpty)
    #expect(miss.status == nil)
  }

  @Test("a get made inside a caller's span is its child")
  func childOfCallersSpan() async throws {
    let tracer = InMemoryTracer()
    let cache = slowOrigin("origin").traced(tracer: tracer)
    let request = tracer.startSpan("GET /page")
    _ = try await ServiceContext.$current.withValue(request.context) {
      try await cache.get("a")
    }
    request.end()
    let finished = try await spans(tracer, count: 2)
    let get = try span(finished, level: "origin")
    let outer = try #require(finished.first { $0.operationName == "GET /page" })
    #expect(get.parentSpanID == outer.spanID)
  }

  @Test("a cancelled get ends its span, marked cancelled")
  func cancelled() async throws {
    let tracer = InMemoryTracer()
    let pending = Promise<String>()
    let never = BasicFetcher<String, String>(name: "never") { _ in pending.future }
    let cache = never.traced(tracer: tracer)
    let request: Future<String> = cache.get("a")
    request.cancel()
    let finished = try #require(try await spans(tracer, count: 1).first)
    #expect(finished.attributes["carlos.cancelled"]?.toSpanAttribute() == true.toSpanAttribute())
  }

  @Test("without a tracer a traced level records nothing and answers as the level does")
  func offWithoutTracer() async throws {
    let memory = MemoryCacheLevel<String, String>(capacity: 10)
    let traced = memory.traced()
    #expect(!traced.isRecording)
    try await traced.set("v", forKey: "k")
    #expect(try await traced.get("k") == "v")
    #expect(try await traced.getWithSource("k").source == "MemoryCacheLevel")
    try await traced.remove("k")
    await #expect(throws: FetchError.valueNotInCache) { try await traced.get("k") }
  }
}
#endif
