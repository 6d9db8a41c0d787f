import Foundation
import Testing

@testable import Carlos

/// A value that is not an ``ExpensiveObject``: a level needs a cost function for it.
private struct User: Codable, Sendable, Equatable {
  let name: String
  let age: Int
}

@Suite("MemoryCacheLevel with a cost function")
struct MemoryCacheLevelCostFunctionTests {
  @Test(
    "any Sendable value can be stored; a cost of 1 each bounds the number of values",
    arguments: MemoryCacheLevelTests.policies)
  func countBound(policy: EvictionPolicy) throws {
    let level = MemoryCacheLevel<String, User>(capacity: 3, cost: { _ in 1 }, policy: policy)
    for index in 0..<10 {
      level.set(User(name: "user \(index)", age: index), forKey: "user:\(index)")
      #expect(level.count <= 3)
    }
    #expect(level.count == 3)
    #expect(level.totalCost == 3)
    #expect(try level.get("user:9").result?.get() == User(name: "user 9", age: 9))
  }

  @Test("the cost function decides the total cost, and costs below 1 count as 1")
  func costsCount() {
    let level = MemoryCacheLevel<Int, User>(capacity: 100, cost: { $0.age })
    level.set(User(name: "a", age: 30), forKey: 1)
    level.set(User(name: "b", age: 0), forKey: 2)
    level.set(User(name: "c", age: -4), forKey: 3)
    #expect(level.totalCost == 32)
    level.set(User(name: "d", age: 80), forKey: 4)
    #expect(level.totalCost <= 100)
    #expect(level.get(4).result?.value == User(name: "d", age: 80))
  }

  @Test("a value the cost function prices above the capacity is refused")
  func tooLarge() {
    let level = MemoryCacheLevel<Int, User>(capacity: 10, cost: { $0.age })
    let refused = level.set(User(name: "old", age: 11), forKey: 1)
    #expect(
      refused.result?.error as? MemoryCacheLevelError == .valueTooLarge(cost: 11, capacity: 10))
    #expect(level.count == 0)
  }

  @Test("levels of ExpensiveObject values still take their cost from the values")
  func expensiveObjectsKeepTheirCost() {
    let data = MemoryCacheLevel<String, Data>()
    data.set(Data(count: 100), forKey: "a")
    #expect(data.totalCost == 100)
    #expect(data.capacity == 100 * 1024 * 1024)
    let urls = MemoryCacheLevel<URL, Data>(capacity: 150)
    urls.set(Data(count: 100), forKey: URL(fileURLWithPath: "/a"))
    urls.set(Data(count: 100), forKey: URL(fileURLWithPath: "/b"))
    #expect(urls.totalCost == 100)
    #expect(urls.weigher(URL(fileURLWithPath: "/c"), Data(count: 7)) == 7)
  }

  @Test("a weigher sees the key, so long keys count against the capacity")
  func weigherCountsKeys() {
    let level = MemoryCacheLevel<String, Data>(
      capacity: 10_000, weigher: { key, value in key.utf8.count + value.count })
    for index in 0..<100 {
      level.set(Data(count: 10), forKey: String(repeating: "k", count: 1_000) + "\(index)")
    }
    // Each entry costs about 1,012: the capacity holds 9 of them, not 100 of cost 10.
    #expect(level.totalCost <= 10_000)
    #expect(level.count <= 9)
    let long = String(repeating: "x", count: 20_000)
    let refused = level.set(Data(count: 1), forKey: long)
    #expect(
      refused.result?.error as? MemoryCacheLevelError
        == .valueTooLarge(cost: 20_001, capacity: 10_000))
  }
}
