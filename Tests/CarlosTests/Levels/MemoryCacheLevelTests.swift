import Foundation
import Synchronization
import Testing

@testable import Carlos

/// A value whose cost is chosen by the test and which remembers its key.
private struct Weighted: ExpensiveObject, Sendable, Equatable {
  let key: Int
  let cost: Int
}

@Suite("MemoryCacheLevel")
struct MemoryCacheLevelTests {
  static let policies: [EvictionPolicy] = [.lru, .tinyLFU, .adaptiveTinyLFU]

  @Test("a miss fails with valueNotInCache", arguments: policies)
  func missFails(policy: EvictionPolicy) {
    let cache = MemoryCacheLevel<String, Int>(capacity: 10, policy: policy)
    let result = cache.get("absent").result
    #expect(result?.error as? FetchError == .valueNotInCache)
  }

  @Test("a stored value is returned, and set answers with a completed future", arguments: policies)
  func storesAndReturns(policy: EvictionPolicy) throws {
    let cache = MemoryCacheLevel<String, String>(capacity: 100, policy: policy)
    let stored = cache.set("value", forKey: "key")
    #expect(stored.isCompleted)
    #expect(stored.result?.value != nil)
    #expect(try cache.get("key").result?.get() == "value")
    cache.set("other", forKey: "key")
    #expect(try cache.get("key").result?.get() == "other")
    #expect(cache.count == 1)
    #expect(cache.totalCost == 5)
  }

  @Test("URL works as a key")
  func urlKeys() throws {
    let cache = MemoryCacheLevel<URL, Data>(capacity: 1 << 20)
    let url = try #require(URL(string: "https://example.com/a.png"))
    cache.set(Data([1, 2, 3]), forKey: url)
    #expect(try cache.get(url).result?.get() == Data([1, 2, 3]))
    let other = try #require(URL(string: "https://example.com/b.png"))
    #expect(cache.get(other).result?.error as? FetchError == .valueNotInCache)
  }

  @Test("clear and onMemoryWarning empty the level", arguments: policies)
  func clearAndMemoryWarning(policy: EvictionPolicy) throws {
    let cache = MemoryCacheLevel<Int, Int>(capacity: 100, policy: policy)
    for key in 0..<50 { cache.set(key, forKey: key) }
    cache.clear()
    #expect(cache.count == 0)
    #expect(cache.totalCost == 0)
    #expect(cache.get(1).result?.error as? FetchError == .valueNotInCache)
    for key in 0..<50 { cache.set(key, forKey: key) }
    #expect(try cache.get(7).result?.get() == 7)
    cache.onMemoryWarning()
    #expect(cache.count == 0)
    #expect(cache.get(7).result?.error as? FetchError == .valueNotInCache)
    cache.set(3, forKey: 3)
    #expect(try cache.get(3).result?.get() == 3)
  }

  @Test("a value costing more than the capacity is refused with a clear error", arguments: policies)
  func tooLarge(policy: EvictionPolicy) throws {
    let cache = MemoryCacheLevel<String, String>(capacity: 8, policy: policy)
    cache.set("old", forKey: "a")
    cache.set("kept", forKey: "b")
    let refused = cache.set("far too long", forKey: "a")
    #expect(
      refused.result?.error as? MemoryCacheLevelError == .valueTooLarge(cost: 12, capacity: 8))
    // The stale value is gone, the rest is untouched.
    #expect(cache.get("a").result?.error as? FetchError == .valueNotInCache)
    #expect(try cache.get("b").result?.get() == "kept")
    #expect(cache.totalCost == 4)
  }

  @Test("with no capacity nothing is stored, and nothing crashes")
  func zeroAndNegativeCapacity() {
    for capacity in [0, -5] {
      let cache = MemoryCacheLevel<Int, Int>(capacity: capacity)
      #expect(cache.capacity == 0)
      let result = cache.set(1, forKey: 1).result
      #expect(result?.error as? MemoryCacheLevelError == .valueTooLarge(cost: 1, capacity: 0))
      #expect(cache.get(1).result?.error as? FetchError == .valueNotInCache)
    }
  }

  @Test("costs below 1 count as 1, so the count is bounded too", arguments: policies)
  func zeroCostValues(policy: EvictionPolicy) {
    let cache = MemoryCacheLevel<Int, Data>(capacity: 10, policy: policy)
    for key in 0..<100 { cache.set(Data(), forKey: key) }
    #expect(cache.count == 10)
    #expect(cache.totalCost == 10)
  }

  @Test("LRU evicts the least recently used value")
  func lruOrder() {
    let cache = MemoryCacheLevel<String, Int>(capacity: 3, policy: .lru)
    cache.set(1, forKey: "a")
    cache.set(2, forKey: "b")
    cache.set(3, forKey: "c")
    _ = cache.get("a")  // b is now the least recently used
    cache.set(4, forKey: "d")
    #expect(cache.get("b").result?.error != nil)
    #expect(cache.get("a").result?.value == 1)
    #expect(cache.get("c").result?.value == 3)
    #expect(cache.get("d").result?.value == 4)
    cache.set(30, forKey: "c")  // storing is a use too: a is now the oldest
    cache.set(5, forKey: "e")
    #expect(cache.get("a").result?.error != nil)
    #expect(cache.get("c").result?.value == 30)
  }

  @Test("a heavy value evicts as many light ones as needed, and is kept", arguments: policies)
  func weightedEviction(policy: EvictionPolicy) {
    let cache = MemoryCacheLevel<Int, Weighted>(capacity: 10, policy: policy)
    for key in 0..<10 { cache.set(Weighted(key: key, cost: 1), forKey: key) }
    #expect(cache.totalCost == 10)
    cache.set(Weighted(key: 100, cost: 7), forKey: 100)
    #expect(cache.get(100).result?.value == Weighted(key: 100, cost: 7))
    #expect(cache.totalCost <= 10)
    #expect(cache.count <= 4)
    cache.set(Weighted(key: 101, cost: 10), forKey: 101)
    #expect(cache.count == 1)
    #expect(cache.get(101).result?.value?.key == 101)
  }

  @Test("total cost never exceeds the capacity, and the value just set is kept (random workloads)")
  func costBoundProperty() {
    for seed in 0..<40 {
      for policy in Self.policies {
        var random = SplitMix64(seed: UInt64(seed))
        let capacity = Int.random(in: 1...200, using: &random)
        let keys = Int.random(in: 1...400, using: &random)
        let maxCost = Int.random(in: 1...capacity, using: &random)
        let cache = MemoryCacheLevel<Int, Weighted>(capacity: capacity, policy: policy)
        for step in 0..<1_500 {
          let key = Int.random(in: 0..<keys, using: &random)
          if Bool.random(using: &random) {
            _ = cache.get(key)
            continue
          }
          let value = Weighted(key: key, cost: Int.random(in: 0...maxCost, using: &random))
          let stored = cache.set(value, forKey: key)
          #expect(stored.result?.error == nil)
          let total = cache.totalCost
          #expect(
            total <= capacity,
            "seed \(seed) \(policy) step \(step): total \(total) > capacity \(capacity)")
          #expect(cache.get(key).result?.value == value, "seed \(seed) \(policy) step \(step)")
          if total > capacity { return }
        }
        #expect(cache.count <= capacity)
      }
    }
  }

  @Test("many tasks mixing gets and sets never see another key's value", arguments: policies)
  func concurrentUse(policy: EvictionPolicy) async {
    let cache = MemoryCacheLevel<Int, Int>(capacity: 300, policy: policy)
    let wrong = await withTaskGroup(of: Int.self) { group in
      for task in 0..<8 {
        group.addTask {
          var random = SplitMix64(seed: UInt64(task))
          var wrong = 0
          for _ in 0..<10_000 {
            let key = Int.random(in: 0..<1_000, using: &random)
            if Bool.random(using: &random) {
              cache.set(
                key * 1_000_000 + Int.random(in: 0..<1_000_000, using: &random), forKey: key)
            } else if let value = cache.get(key).result?.value, value / 1_000_000 != key {
              wrong += 1
            }
          }
          return wrong
        }
      }
      return await group.reduce(0, +)
    }
    #expect(wrong == 0)
    #expect(cache.totalCost <= 300)
    #expect(cache.count == cache.totalCost)
  }

  @Test("hits return the same completed future until the value changes")
  func sharedFutures() {
    let cache = MemoryCacheLevel<Int, Int>(capacity: 10)
    cache.set(1, forKey: 1)
    let first = cache.get(1)
    first.cancel()  // a completed future ignores cancellation
    #expect(cache.get(1) === first)
    #expect(cache.get(1).result?.value == 1)
    cache.set(2, forKey: 1)
    #expect(cache.get(1) !== first)
    #expect(cache.get(1).result?.value == 2)
  }

  @Test(
    "an update by a value of the same cost orders eviction as a locked update does",
    arguments: policies)
  func sameCostUpdatesOrderEviction(policy: EvictionPolicy) async {
    // An observed level takes the policy's lock for every set; an unobserved one
    // records same-cost updates in its read buffer. From one thread both must
    // evict the same keys.
    let results = Lock<(plain: [Bool], locked: [Bool])>(([], []))
    await onThreads(1) { _ in
      func replay(_ level: MemoryCacheLevel<Int, Int>) -> [Bool] {
        var random = SplitMix64(seed: 11)
        var hits: [Bool] = []
        for step in 0..<20_000 {
          let key = Int.random(in: 0..<300, using: &random)
          let hit = level.get(key).result?.value != nil
          hits.append(hit)
          if !hit || step % 3 == 0 { level.set(step, forKey: key) }
        }
        return hits
      }
      let locked = MemoryCacheLevel<Int, Int>(capacity: 100, policy: policy)
      let token = locked.observe { _ in }
      defer { token.cancel() }
      let plain = replay(MemoryCacheLevel(capacity: 100, policy: policy))
      let lockedHits = replay(locked)
      results.withLock { $0 = (plain, lockedHits) }
    }
    let (hits, lockedHits) = results.withLock { $0 }
    #expect(hits.count == 20_000)
    #expect(hits.filter { $0 }.count > 1_000)
    #expect(hits == lockedHits)
  }
}

/// A plain LRU cache of unit-cost keys: what `.lru` must do when used from one thread.
private struct ReferenceLRU {
  let capacity: Int
  var order: [Int] = []  // least recently used first

  mutating func get(_ key: Int) -> Bool {
    guard let index = order.firstIndex(of: key) else { return false }
    order.append(order.remove(at: index))
    return true
  }

  mutating func set(_ key: Int) {
    if let index = order.firstIndex(of: key) { order.remove(at: index) }
    order.append(key)
    if order.count > capacity { order.removeFirst() }
  }
}

// Serialized: each test runs threads of its own flat out; together, under
// ThreadSanitizer, they would starve the rest of the suite of processor time.
@Suite("MemoryCacheLevel under concurrency", .serialized)
struct MemoryCacheLevelConcurrencyTests {
  @Test(
    "from one thread, LRU order is exact across every shard, updates included (random trace against a reference)"
  )
  func exactLRUFromOneThread() async {
    let disagreements = Lock(-1)
    // On a thread of its own: long work must not hold one of the few cooperative
    // threads (under ThreadSanitizer this takes seconds).
    await onThreads(1) { _ in
      var random = SplitMix64(seed: 3)
      let level = MemoryCacheLevel<Int, Int>(capacity: 64, policy: .lru)
      var reference = ReferenceLRU(capacity: 64)
      var count = 0
      for _ in 0..<20_000 {
        let key = Int.random(in: 0..<160, using: &random)
        let hit = level.get(key).result?.value == key
        if hit != reference.get(key) { count += 1 }
        // Also updates of stored keys (same cost): they skip the policy's lock.
        if !hit || key % 4 == 0 {
          level.set(key, forKey: key)
          reference.set(key)
        }
      }
      disagreements.withLock { $0 = count }
    }
    #expect(disagreements.withLock { $0 } == 0)
  }

  @Test(
    "in a large level, a future handed out keeps its value while held, also on other threads (spare futures)"
  )
  func heldFuturesKeepTheirValues() async {
    let keys = 20_000  // beyond the 16,384 slots that keep a future each
    let level = MemoryCacheLevel<Int, Int>(capacity: keys, policy: .lru)
    let fill = { for key in 0..<keys { level.set(key * 3, forKey: key) } }
    fill()
    let handOff = Lock<[(key: Int, future: Future<Int>)]>([])
    let wrong = Lock(0)
    await onThreads(4) { thread in
      var random = SplitMix64(seed: UInt64(thread) + 7)
      var held: [(key: Int, future: Future<Int>)] = []
      var mine = 0
      for step in 0..<20_000 {
        let key = Int.random(in: 16_384..<keys, using: &random)
        let future = level.get(key)
        if future.result?.value != key * 3 { mine += 1 }
        if step % 3 == 0 { held.append((key, future)) }
        if held.count == 8 {
          // Threads 0 and 1 hand their futures to 2 and 3, which check and drop them.
          if thread < 2 {
            handOff.withLock { $0.append(contentsOf: held) }
          } else {
            let received = handOff.withLock { list in
              defer { list = [] }
              return list
            }
            for (key, future) in received + held where future.result?.value != key * 3 {
              mine += 1
            }
          }
          held = []
        }
      }
      wrong.withLock { $0 += mine }
    }
    for (key, future) in handOff.withLock({ $0 }) where future.result?.value != key * 3 {
      wrong.withLock { $0 += 1 }
    }
    #expect(wrong.withLock { $0 } == 0)
  }

  @Test("clear and onMemoryWarning let go of the values the threads' spare futures held")
  func clearReleasesSpareValues() {
    final class Payload: Sendable {}
    for warning in [false, true] {
      let keys = 16_400  // beyond the 16,384 slots that keep a future each
      let level = MemoryCacheLevel<Int, Payload>(capacity: keys, cost: { _ in 1 })
      weak var last: Payload?
      do {
        let payloads = (0..<keys).map { _ in Payload() }
        for key in 0..<keys { level.set(payloads[key], forKey: key) }
        last = payloads[keys - 1]
        #expect(level.get(keys - 1).result?.value === last)  // read, then let go: a spare holds it
      }
      #expect(last != nil)
      if warning { level.onMemoryWarning() } else { level.clear() }
      #expect(
        last == nil,
        "a spare future still held the value after \(warning ? "a memory warning" : "clear")")
    }
  }

  @Test(
    "a spare future dropped on another thread, with nothing else ordering the two threads, is reused safely"
  )
  func spareDroppedElsewhere() async {
    let keys = 16_400
    let level = MemoryCacheLevel<Int, Int>(capacity: keys, policy: .lru)
    let fill = { for key in 0..<keys { level.set(key * 3, forKey: key) } }
    fill()
    let passed = Lock<Future<Int>?>(nil)
    let dropped = Atomic<Int>(0)
    let wrong = Atomic<Int>(0)
    let reused = Atomic<Int>(0)
    await onThreads(2) { thread in
      for round in 1...200 {
        if thread == 0 {
          let key = 16_384 + round % 8
          let handed = passed.withLock { passed in
            passed = level.get(key)
            return passed.map(ObjectIdentifier.init)
          }
          while dropped.load(ordering: .relaxed) != round { sched_yield() }
          // The other thread read and dropped it: this get reuses it.
          let next = level.get(key &+ 1)
          if ObjectIdentifier(next) == handed { reused.add(1, ordering: .relaxed) }
          if next.result?.value != (key &+ 1) * 3 { wrong.add(1, ordering: .relaxed) }
        } else {
          var future: Future<Int>? = nil
          while future == nil {
            future = passed.withLock { list in
              defer { list = nil }
              return list
            }
          }
          if future?.result?.value != (16_384 + round % 8) * 3 { wrong.add(1, ordering: .relaxed) }
          future = nil
          dropped.store(round, ordering: .relaxed)
        }
      }
    }
    #expect(wrong.load(ordering: .relaxed) == 0)
    #expect(reused.load(ordering: .relaxed) == 200)
  }

  @Test(
    "many threads: the capacity holds after every set, values stay with their keys, counts agree",
    arguments: MemoryCacheLevelTests.policies)
  func stress(policy: EvictionPolicy) async {
    let capacity = 200
    let level = MemoryCacheLevel<Int, Int>(capacity: capacity, policy: policy)
    let violations = Lock(0)
    await onThreads(4) { thread in
      var random = SplitMix64(seed: UInt64(thread))
      var mine = 0
      for step in 0..<8_000 {
        let key = Int.random(in: 0..<600, using: &random)
        switch step % 10 {
        case 0, 1:
          level.set(key * 1_000 + thread, forKey: key)
          if level.totalCost > capacity { mine += 1 }
        case 2: level.remove(key)
        case 3 where step % 1_000 == 3: level.clear()
        default:
          if let value = level.get(key).result?.value, value / 1_000 != key { mine += 1 }
        }
      }
      violations.withLock { $0 += mine }
    }
    #expect(violations.withLock { $0 } == 0)
    #expect(level.count == level.totalCost)
    #expect(level.count <= capacity)
    var found = 0
    for key in 0..<600 where level.get(key).result?.value != nil { found += 1 }
    #expect(found == level.count)
  }

  @Test("a slot's generation wraps within the 31 bits a read ticket carries, so reads still count")
  func generationWraps() {
    let level = MemoryCacheLevel<String, Int>(capacity: 2, policy: .lru)
    level.set(1, forKey: "a")  // slot 0
    level.remove("a")
    level.write(drainingAll: true) { $0.policy.nodes[0].generation = 0x7FFF_FFFF }
    level.set(1, forKey: "a")  // slot 0, generation 2³¹ − 1
    level.remove("a")  // the generation wraps to 0
    level.set(1, forKey: "a")  // slot 0, generation 0
    level.set(2, forKey: "b")
    _ = level.get("a")  // a is now the most recently used
    level.set(3, forKey: "c")
    #expect(level.get("a").result?.value == 1)
    #expect(level.get("b").result?.value == nil)
  }

  @Test("an update by a value of the same cost does not wait for the policy's lock")
  func sameCostUpdateSkipsPolicyLock() async throws {
    let level = MemoryCacheLevel<Int, Int>(capacity: 10)
    try await level.set(1, forKey: 1)
    let updated = Lock(false)
    await onThreads(1) { _ in
      let done = DispatchSemaphore(value: 0)
      level.withPolicy { _ in  // holds the policy's lock until the update is done
        Thread {
          level.set(2, forKey: 1)
          done.signal()
        }.start()
        let finished = done.wait(timeout: .now() + patience) == .success
        updated.withLock { $0 = finished }
      }
    }
    #expect(updated.withLock { $0 })
    #expect(level.get(1).result?.value == 2)
    #expect(level.totalCost == 1)
  }

  @Test("statistics count every read of every thread exactly")
  func exactStatistics() async throws {
    let level = MemoryCacheLevel<Int, Int>(capacity: 1_000)
    for key in 0..<100 { try await level.set(key, forKey: key) }
    await onThreads(4) { thread in
      for step in 0..<5_000 { _ = level.get((step + thread) % 200) }
    }
    let statistics = level.statistics
    #expect(statistics.hitCount == 10_000)
    #expect(statistics.missCount == 10_000)
  }
}

/// An object a ``WeakHolder`` refers to.
private final class Referent: Sendable {
  let id: Int
  init(id: Int) { self.id = id }
}

/// A value that cannot be moved by copying its bytes (a weak reference).
private struct WeakHolder: Sendable {
  weak var referent: Referent?
  let id: Int
}

@Suite("MemoryCacheLevel records")
struct MemoryCacheLevelRecordTests {
  @Test("values that cannot be moved by copying their bytes survive the records' growth")
  func weakValuesSurviveGrowth() {
    #expect(!_isBitwiseTakable(WeakHolder.self))
    let referents = (0..<1_000).map { Referent(id: $0) }
    let level = MemoryCacheLevel<Int, WeakHolder>(capacity: 2_000, cost: { _ in 1 })
    for referent in referents {
      level.set(WeakHolder(referent: referent, id: referent.id), forKey: referent.id)
      if referent.id % 3 == 0 { level.remove(referent.id / 2) }
    }
    for referent in referents {
      guard let value = level.get(referent.id).result?.value else { continue }
      #expect(value.id == referent.id)
      #expect(value.referent === referent)
    }
    #expect(level.count > 600)
  }
}
