import Carlos
import Foundation
import Testing

/// An API client whose method is passed by name.
struct ProfileAPI: Sendable {
  func profile(_ id: String) async throws -> String { "profile of \(id)" }
}

@Suite("Operators take async functions and closures")
struct AsyncOperatorTests {
  @Test("memory >>> disk >>> load, with load an async function passed by name")
  func functionByName() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "carlos-async-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let memory = MemoryCacheLevel<String, String>()
    let disk = DiskCacheLevel<String, String>(path: directory.path)
    let cache = memory >>> disk >>> loadGreeting
    #expect(try await cache.get("ada") == "hello, ada")
    #expect(try await memory.get("ada") == "hello, ada")
    #expect(try await disk.get("ada") == "hello, ada")
  }

  @Test("a method passed by name and a trailing async closure")
  func methodAndClosure() async throws {
    let api = ProfileAPI()
    let memory = MemoryCacheLevel<String, String>()
    #expect(try await (memory >>> api.profile).get("42") == "profile of 42")
    let closure = memory >>> { id in try await api.profile(id) }
    #expect(try await closure.get("7") == "profile of 7")
    let typed = memory >>> { (key: String) async throws -> String in try await loadGreeting(key) }
    #expect(try await typed.get("x") == "hello, x")
  }

  @Test("an async function on the left of >>> is asked first")
  func functionOnTheLeft() async throws {
    let memory = MemoryCacheLevel<String, String>()
    try await memory.set("from memory", forKey: "k")
    let first = { @Sendable (key: String) async throws -> String in
      guard key == "known" else { throw FetchError.valueNotInCache }
      return "from function"
    }
    let cache = first >>> memory
    #expect(try await cache.get("known") == "from function")
    #expect(try await cache.get("k") == "from memory")
  }

  @Test("a failing async function fails the get with its error; a set is a no-op")
  func failures() async throws {
    let origin = AsyncOrigin()
    let cache = MemoryCacheLevel<String, String>() >>> origin.load
    await #expect(throws: FetchError.invalidKey) { try await cache.get("bad") }
    try await cache.set("v", forKey: "k")
    #expect(try await cache.get("k") == "v")
    #expect(origin.calls == 1)
  }

  @Test("=>> takes async key and value transforms; <?> an async condition")
  func transformsAndConditions() async throws {
    let memory = MemoryCacheLevel<String, String>()
    try await memory.set("forty-two", forKey: "42")
    let byNumber = { (number: Int) async throws -> String in "\(number)" } =>> memory
    #expect(try await byNumber.get(42) == "forty-two")

    let lengths =
      BasicFetcher(fetch: loadGreeting) =>> { (text: String) async throws -> Int in text.count }
    #expect(try await lengths.get("bo") == 9)

    let allowed = { (key: String) async throws -> Bool in key.hasPrefix("public:") } <?> memory
    await #expect(throws: FetchError.conditionNotSatisfied) { try await allowed.get("42") }

    let box = TwoWayTransformationBox<String, Int>(
      transform: { text in text.count },
      inverseTransform: { count in String(repeating: "x", count: count) })
    let counted = memory =>> box
    try await counted.set(3, forKey: "three")
    #expect(try await memory.get("three") == "xxx")
    #expect(try await counted.get("three") == 3)
  }

  @Test("the Future-returning spellings still resolve as before")
  func existingSpellings() async throws {
    let memory = MemoryCacheLevel<String, String>()
    let futureFetch: BasicCache<String, String> = memory >>> { key in Future("\(key)!") }
    #expect(try await futureFetch.get("a") == "a!")
    let keyed: BasicCache<Int, String> = { (number: Int) in Future("\(number)") } =>> futureFetch
    #expect(try await keyed.get(1) == "1!")
    let conditioned: BasicCache<String, String> = { (_: String) in Future(true) } <?> futureFetch
    #expect(try await conditioned.get("b") == "b!")
    let composed = { (x: Int) in x + 1 } >>> { (x: Int) in x * 2 }
    #expect(composed(1) == 4)
  }

  @Test("getWithSource names an async function 'closure', or the name it is given")
  func sourceNames() async throws {
    let unnamed = MemoryCacheLevel<String, String>() >>> loadGreeting
    #expect(try await unnamed.getWithSource("a").source == "closure")
    let named =
      MemoryCacheLevel<String, String>().named("memory")
      >>> BasicFetcher(name: "origin", fetch: loadGreeting)
    let first = try await named.getWithSource("a")
    #expect(first.source == "origin" && first.wasWrittenBack)
    #expect(try await named.getWithSource("a").source == "memory")
    #expect(named.levelName == "BasicCache")
  }

  @Test("concurrent gets of one key through pooled() run the async function once")
  func pooledRunsOnce() async throws {
    let origin = AsyncOrigin(held: true)
    let cache = BasicFetcher(fetch: origin.load).pooled()
    let gets = (0..<50).map { _ in cache.get("k") as Future<String> }
    #expect(await eventually { origin.calls == 1 })
    origin.release()
    for get in gets { #expect(try await get.value == "k from origin") }
    #expect(origin.calls == 1)
  }
}
