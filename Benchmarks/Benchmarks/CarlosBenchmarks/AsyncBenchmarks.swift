import Benchmark
import Carlos
import Foundation

/// An origin written as an async function: it answers at once, so the rows measure
/// what the bridge costs, not the origin.
@Sendable
func asyncOrigin(_ key: String) async throws -> Data {
  Fixtures.values[key.utf8.count & (Fixtures.keyCount - 1)]
}

/// The async API against the Future-returning spellings of the same work.
func asyncBenchmarks() {
  // A composed get whose first level hits never reaches the fetch below, async or not.
  Benchmark("async.compose · baseline memory >>> Future-returning fetch, first level hits") {
    benchmark, level in
    for i in benchmark.scaledIterations {
      level.get(Fixtures.key(i)).onSuccess { blackHole($0) }
    }
  } setup: { () -> BasicCache<String, Data> in
    filledMemoryLevel() >>> unreachableFetch
  }

  Benchmark("async.compose · Carlos memory >>> async function, first level hits") {
    benchmark, level in
    for i in benchmark.scaledIterations {
      level.get(Fixtures.key(i)).onSuccess { blackHole($0) }
    }
  } setup: { () -> BasicCache<String, Data> in
    filledMemoryLevel() >>> asyncOrigin
  }

  // A miss answered by the async function, against the only spelling that worked
  // before: a closure that wraps it in Future(operation:).
  Benchmark("async.miss · baseline miss >>> { k in Future { try await load(k) } }") {
    benchmark, level in
    for i in benchmark.scaledIterations {
      blackHole(try await level.get(Fixtures.key(i)).value)
    }
  } setup: { () -> BasicCache<String, Data> in
    IdentityLevel<String, Data>() >>> { key in Future { try await asyncOrigin(key) } }
  }

  Benchmark("async.miss · Carlos miss >>> load (the async function itself)") {
    benchmark, level in
    for i in benchmark.scaledIterations {
      blackHole(try await level.get(Fixtures.key(i)).value)
    }
  } setup: { () -> BasicCache<String, Data> in
    IdentityLevel<String, Data>() >>> asyncOrigin
  }

  // Awaiting a memory hit: the async form against the future's value.
  Benchmark("async.get · baseline await memory.get(k).value, hit") { benchmark, level in
    for i in benchmark.scaledIterations {
      blackHole(try await level.get(Fixtures.key(i)).value)
    }
  } setup: {
    filledMemoryLevel()
  }

  Benchmark("async.get · Carlos try await memory.get(k), hit") { benchmark, level in
    for i in benchmark.scaledIterations {
      let value: Data = try await level.get(Fixtures.key(i))
      blackHole(value)
    }
  } setup: {
    filledMemoryLevel()
  }

  // Get-or-load on a pipeline whose first level hits: one shared pass per key (a
  // table of passes in flight) against the plain get it wraps.
  Benchmark("async.getOrLoad · baseline (memory >>> origin).get(k)+onSuccess, hit") {
    benchmark, level in
    for i in benchmark.scaledIterations {
      level.get(Fixtures.key(i)).onSuccess { blackHole($0) }
    }
  } setup: { () -> BasicCache<String, Data> in
    filledMemoryLevel() >>> asyncOrigin
  }

  Benchmark("async.getOrLoad · Carlos (memory >>> origin).get(k, orLoad:)+onSuccess, hit") {
    benchmark, level in
    for i in benchmark.scaledIterations {
      let request: Future<Data> = level.get(Fixtures.key(i), orLoad: asyncOrigin)
      request.onSuccess { blackHole($0) }
    }
  } setup: { () -> BasicCache<String, Data> in
    filledMemoryLevel() >>> asyncOrigin
  }
}
