import Carlos
import Foundation
import Testing

@Suite("Async forms: try await means what it says")
struct AsyncFormsTests {
  @Test("try await get returns the value; a miss throws valueNotInCache")
  func getReturnsTheValue() async throws {
    let memory = MemoryCacheLevel<String, String>()
    try await memory.set("v", forKey: "k")
    let value: String = try await memory.get("k")
    #expect(value == "v")
    await #expect(throws: FetchError.valueNotInCache) { try await memory.get("missing") }
  }

  @Test("try await set does not return before the set completes, and a failing set throws")
  func setWaits() async throws {
    let pending = Promise<Void>()
    let level = BasicCache<String, String>(
      getClosure: { _ in Future(FetchError.valueNotInCache) },
      setClosure: { value, _ in value == "fails" ? Future(FetchError.invalidKey) : pending.future },
      clearClosure: {}, memoryClosure: {})
    let finished = Gate()
    let setter = Task {
      try await level.set("v", forKey: "k")
      finished.open()
    }
    try await Task.sleep(for: .milliseconds(50))
    #expect(!finished.isOpen)
    pending.succeed(())
    try await setter.value
    #expect(finished.isOpen)
    await #expect(throws: FetchError.invalidKey) { try await level.set("fails", forKey: "k") }
  }

  @Test("try await remove waits, and throws what the removal fails with")
  func removeWaits() async throws {
    let memory = MemoryCacheLevel<String, String>()
    try await memory.set("v", forKey: "k")
    try await memory.remove("k")
    await #expect(throws: FetchError.valueNotInCache) { try await memory.get("k") }
    let unremovable = BasicCache<String, String>(
      getClosure: { _ in Future("v") }, setClosure: { _, _ in Future() }, clearClosure: {},
      memoryClosure: {})
    await #expect(throws: FetchError.removeNotSupported) { try await unremovable.remove("k") }
  }

  @Test("the future stays reachable in async code by its type, with .value and callbacks")
  func futureReachable() async throws {
    let memory = MemoryCacheLevel<String, String>()
    try await memory.set("v", forKey: "k")
    let future: Future<String> = memory.get("k")
    #expect(try await future.value == "v")
    #expect(try await memory.get("k").value == "v")
    let seen = Gate()
    memory.get("k").onSuccess { _ in seen.open() }
    #expect(await eventually { seen.isOpen })
  }

  @Test("getWithSource and entry(forKey:) have async forms")
  func otherAsyncForms() async throws {
    let memory = MemoryCacheLevel<String, String>()
    try await memory.set("v", forKey: "k", expiry: .after(.seconds(60)))
    let answer = try await memory.getWithSource("k")
    #expect(answer.value == "v" && answer.source == "MemoryCacheLevel")
    let entry = try await memory.entry(forKey: "k")
    #expect(entry.value == "v" && entry.expiresAt != nil)
    try await memory.removeExpired()
  }

  @Test("cancelling the awaiting task cancels the get and the async function behind it")
  func cancellingTheTask() async throws {
    let origin = AsyncOrigin(held: true)
    let cache = MemoryCacheLevel<String, String>() >>> origin.load
    let waiter = Task { try await cache.get("k") }
    #expect(await eventually { origin.calls == 1 })
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
    #expect(await eventually { origin.cancelled == 1 })
  }

  @Test("cancelling the future cancels the async function's task")
  func cancellingTheFuture() async throws {
    let origin = AsyncOrigin(held: true)
    let cache = MemoryCacheLevel<String, String>() >>> origin.load
    let future: Future<String> = cache.get("k")
    #expect(await eventually { origin.calls == 1 })
    future.cancel()
    #expect(await eventually { origin.cancelled == 1 })
    #expect(future.result.map { if case .cancelled = $0 { true } else { false } } == true)
  }
}
