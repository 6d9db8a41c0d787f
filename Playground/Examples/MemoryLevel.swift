import Carlos
import Foundation

extension Example {
  static let memoryLevel: Example = Example(
    name: "memory",
    summary: "MemoryCacheLevel: a cost-bounded memory level with adaptive W-TinyLFU eviction"
  ) {
    // The capacity is a total cost: bytes for Data and String, 1 for numbers.
    let memory = MemoryCacheLevel<String, String>(capacity: 32)
    try await memory.set("Carlos", forKey: "name")
    try await memory.set("a cache library", forKey: "what")
    print(
      "name: \(await outcome(memory.get("name"))), total cost \(memory.totalCost) of \(memory.capacity)"
    )
    print("a missing key: \(await outcome(memory.get("nope")))")

    // Storing more than fits evicts other values; the value just stored stays.
    try await memory.set("composable levels", forKey: "how")
    print("after storing 17 more bytes: \(memory.count) values, total cost \(memory.totalCost)")
    print("how: \(await outcome(memory.get("how")))")
    print(
      "a value larger than the whole capacity: \(await outcome(memory.set(String(repeating: "x", count: 50), forKey: "big")))"
    )

    // The policy matters. A popular set of keys, then a long one-time scan:
    // LRU forgets the popular keys, W-TinyLFU keeps them.
    for policy in [EvictionPolicy.lru, .adaptiveTinyLFU] {
      let cache = MemoryCacheLevel<Int, Int>(capacity: 100, policy: policy)
      func use(_ key: Int) {
        if cache.get(key).result?.value == nil { cache.set(key, forKey: key) }
      }
      for _ in 0..<5 { (0..<50).forEach(use) }
      (1_000..<1_500).forEach(use)
      let kept = (0..<50).filter { cache.get($0).result?.value != nil }.count
      print("\(policy): \(kept) of 50 popular keys survive a scan of 500 others")
    }

    // A memory level is usually the first level of a pipeline, and a memory
    // warning empties it.
    let pipeline = memory >>> BasicFetcher<String, String> { key in Future("fetched \(key)") }
    print("through the pipeline: \(await outcome(pipeline.get("status")))")
    print("now in memory: \(await outcome(memory.get("status")))")
    memory.onMemoryWarning()
    print("after a memory warning: \(memory.count) values")
  }
}
