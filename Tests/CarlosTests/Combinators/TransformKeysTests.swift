import Carlos
import Foundation
import Testing

@Suite("Key transformation")
struct TransformKeysTests {
  let parse = OneWayTransformationBox<String, Int> { Future(value: Int($0), error: TestError(9)) }

  @Test("gets and sets reach the level under the transformed key")
  func transformsKeys() {
    let level = SpyLevel<Int, String>([1: "one"])
    let cache = level.transformKeys(parse)
    #expect(Outcome(cache.get("1")) == .success("one"))
    cache.set("two", forKey: "2")
    #expect(level.storage[2] == "two")
    #expect(level.gets == [1])
  }

  @Test("a failing transformation fails get and set with its own error")
  func failingTransformation() {
    let level = SpyLevel<Int, String>()
    let cache = parse =>> level
    #expect(cache.get("x").result?.error as? TestError == TestError(9))
    #expect(cache.set("v", forKey: "x").result?.error as? TestError == TestError(9))
    #expect(level.gets.isEmpty)
    #expect(level.storage.isEmpty)
  }

  @Test("a closure works as a key transformer")
  func closureTransformer() {
    let level = SpyLevel<URL, Int>([URL(string: "https://example.com")!: 5])
    let cache =
      { (key: String) in Future(value: URL(string: key), error: FetchError.invalidKey) } =>> level
    #expect(Outcome(cache.get("https://example.com")) == .success(5))
  }

  @Test("clear and memory warnings pass through")
  func passThrough() {
    let level = SpyLevel<Int, String>()
    let cache = parse =>> level
    cache.clear()
    cache.onMemoryWarning()
    #expect(level.clears == 1 && level.memoryWarnings == 1)
  }
}
