import Carlos
import Foundation
import Testing

/// A level written for Carlos 0.x: get, set, clear and onMemoryWarning, nothing else.
final class ZeroXStyleLevel: CacheLevel {
  typealias KeyType = String
  typealias OutputType = Data

  private let values = Lock<[String: Data]>([:])

  func get(_ key: KeyType) -> Future<OutputType> {
    let value = values.withLock { $0[key] }
    return Future(value: value, error: FetchError.valueNotInCache)
  }

  func set(_ value: OutputType, forKey key: KeyType) -> Future<Void> {
    values.withLock { $0[key] = value }
    return Future()
  }

  func clear() {
    values.withLock { $0 = [:] }
  }

  func onMemoryWarning() {
    clear()
  }

  var count: Int { values.withLock { $0.count } }
}

@Suite("A level written for Carlos 0.x still compiles and composes")
struct ZeroXStyleLevelTests {
  @Test("remove fails honestly with removeNotSupported and removes nothing")
  func removeIsHonest() async throws {
    let level = ZeroXStyleLevel()
    try await level.set(Data([1]), forKey: "k")
    await #expect(throws: FetchError.removeNotSupported) { try await level.remove("k") }
    #expect(try await level.get("k") == Data([1]))
  }

  @Test("composed, pooled, capped, batched and normalized")
  func combinators() async throws {
    let level = ZeroXStyleLevel()
    let memory = MemoryCacheLevel<String, Data>()
    let cache = (memory >>> level).pooled().capRequests(2)
    try await level.set(Data([7]), forKey: "a")
    #expect(try await cache.get("a") == Data([7]))
    #expect(try await memory.get("a") == Data([7]))
    #expect(try await level.batchGetSome(["a", "missing"]).value == [Data([7])])
    let normalized: BasicCache<String, Data> = level.normalize()
    try await normalized.set(Data([8]), forKey: "b")
    #expect(level.count == 2)
    let composedRemoval: Future<Void> = (memory >>> level).remove("a")
    await #expect(throws: FetchError.removeNotSupported) { try await composedRemoval.value }
    level.onMemoryWarning()
    #expect(level.count == 0)
  }
}
