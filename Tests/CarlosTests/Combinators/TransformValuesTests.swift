import Carlos
import Foundation
import Testing

@Suite("Value transformation")
struct TransformValuesTests {
  let intToString = TwoWayTransformationBox<Int, String>(
    transform: { Future(String($0)) },
    inverseTransform: { Future(value: Int($0), error: FetchError.valueTransformationFailed) }
  )

  @Test("get transforms forward, set transforms back")
  func bothWays() {
    let level = SpyLevel<String, Int>(["a": 1])
    let cache = level =>> intToString
    #expect(Outcome(cache.get("a")) == .success("1"))
    #expect(cache.set("42", forKey: "b").result?.value != nil)
    #expect(level.storage["b"] == 42)
  }

  @Test("a failing inverse transformation fails the set and stores nothing")
  func failingInverse() {
    let level = SpyLevel<String, Int>()
    let cache = level.transformValues(intToString)
    #expect(
      cache.set("not a number", forKey: "b").result?.error as? FetchError
        == .valueTransformationFailed)
    #expect(level.storage.isEmpty)
  }

  @Test("a fetcher needs only a one-way transformer or a closure")
  func fetcherOneWay() {
    let fetcher = BasicFetcher<String, Int> { Future($0.count) }
    let doubled = fetcher =>> OneWayTransformationBox<Int, Int> { Future($0 * 2) }
    #expect(Outcome(doubled.get("abc")) == .success(6))
    let described = fetcher =>> { (count: Int) in Future("\(count) characters") }
    #expect(Outcome(described.get("ab")) == .success("2 characters"))
    let viaTwoWay = fetcher =>> intToString
    #expect(Outcome(viaTwoWay.get("abcd")) == .success("4"))
  }

  @Test("post-processing runs on get only")
  func postProcess() {
    let level = SpyLevel<String, Int>(["a": 1])
    let cache = level.postProcess(OneWayTransformationBox<Int, Int> { Future($0 + 100) })
    #expect(Outcome(cache.get("a")) == .success(101))
    cache.set(5, forKey: "b")
    #expect(level.storage["b"] == 5)
  }

  @Test("conditioned post-processing sees the key")
  func conditionedPostProcess() {
    let level = SpyLevel<String, Int>(["a": 1, "b": 2])
    let cache = level.conditionedPostProcess(
      ConditionedOneWayTransformationBox<String, Int, Int> { key, value in
        key == "a" ? Future(value * 10) : Future(value)
      })
    #expect(Outcome(cache.get("a")) == .success(10))
    #expect(Outcome(cache.get("b")) == .success(2))
  }

  @Test("conditioned value transformation sees the key both ways")
  func conditionedValueTransformation() {
    let level = SpyLevel<String, Int>(["a": 1])
    let transformer = ConditionedTwoWayTransformationBox<String, Int, String>(
      conditionalTransformClosure: { key, value in Future("\(key)=\(value)") },
      conditionalInverseTransformClosure: { key, value in
        Future(
          value: Int(value.dropFirst(key.count + 1)), error: FetchError.valueTransformationFailed)
      }
    )
    let cache = level.conditionedValueTransformation(transformer: transformer)
    #expect(Outcome(cache.get("a")) == .success("a=1"))
    cache.set("b=7", forKey: "b")
    #expect(level.storage["b"] == 7)
  }
}
