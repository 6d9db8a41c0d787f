import Foundation
import Testing

@testable import Carlos

@Suite("MemoryCacheLevel.insertIfAbsent")
struct MemoryCacheLevelInsertIfAbsentTests {
  @Test("stores into an empty key and answers true", arguments: MemoryCacheLevelTests.policies)
  func storesWhenAbsent(policy: EvictionPolicy) {
    let level = MemoryCacheLevel<String, Int>(capacity: 10, policy: policy)
    #expect(level.insertIfAbsent(1, forKey: "a").result?.value == true)
    #expect(level.get("a").result?.value == 1)
    #expect(level.count == 1)
  }

  @Test(
    "leaves a stored value as it is and answers false", arguments: MemoryCacheLevelTests.policies)
  func keepsWhatIsThere(policy: EvictionPolicy) {
    let level = MemoryCacheLevel<String, Int>(capacity: 10, policy: policy)
    level.set(1, forKey: "a")
    #expect(level.insertIfAbsent(2, forKey: "a").result?.value == false)
    #expect(level.get("a").result?.value == 1)
    #expect(level.insertIfAbsent(3, forKey: "a").result?.value == false)
    #expect(level.get("a").result?.value == 1)
  }

  @Test("an expired value counts as absent")
  func expiredIsAbsent() {
    let clock = ManualClock()
    let level = MemoryCacheLevel<String, Int>(capacity: 10, clock: clock)
    level.set(1, forKey: "a", expiry: .after(.seconds(5)))
    #expect(level.insertIfAbsent(2, forKey: "a").result?.value == false)
    clock.advance(by: .seconds(5))
    #expect(level.insertIfAbsent(3, forKey: "a", expiry: .after(.seconds(5))).result?.value == true)
    #expect(level.get("a").result?.value == 3)
    clock.advance(by: .seconds(5))
    #expect(level.get("a").result?.error as? FetchError == .valueNotInCache)
  }

  @Test("an expiry already past stores nothing and answers false")
  func pastExpiry() {
    let level = MemoryCacheLevel<String, Int>(capacity: 10)
    #expect(level.insertIfAbsent(1, forKey: "a", expiry: .after(.zero)).result?.value == false)
    #expect(level.count == 0)
  }

  @Test("a value above the capacity fails only when nothing is there")
  func tooLarge() {
    let level = MemoryCacheLevel<String, String>(capacity: 4)
    let refused = level.insertIfAbsent("too long", forKey: "a")
    #expect(refused.result?.error as? MemoryCacheLevelError == .valueTooLarge(cost: 8, capacity: 4))
    level.set("abc", forKey: "a")
    #expect(level.insertIfAbsent("too long", forKey: "a").result?.value == false)
    #expect(level.get("a").result?.value == "abc")
  }

  @Test("inserting keeps the capacity bound", arguments: MemoryCacheLevelTests.policies)
  func capacity(policy: EvictionPolicy) {
    let level = MemoryCacheLevel<Int, Int>(capacity: 5, policy: policy)
    for key in 0..<50 {
      #expect(level.insertIfAbsent(key, forKey: key).result?.value == true)
      #expect(level.count <= 5)
      #expect(level.get(key).result?.value == key)
    }
  }

  @Test("without an expiry, an insert follows the level's policy, after-access included")
  func followsThePolicy() async throws {
    let clock = ManualClock()
    let level = MemoryCacheLevel<String, Int>(
      capacity: 10, expiration: .afterAccess(.seconds(10)), clock: clock)
    #expect(try await level.insertIfAbsent(1, forKey: "a"))
    clock.advance(by: .seconds(8))
    #expect(try await level.get("a") == 1)  // a read slides the deadline
    clock.advance(by: .seconds(8))
    #expect(try await level.get("a") == 1)
    clock.advance(by: .seconds(11))
    await #expect(throws: FetchError.valueNotInCache) { try await level.get("a") }
  }

  @Test("observers see the insert as a set")
  func observed() async throws {
    let level = MemoryCacheLevel<String, Int>(capacity: 10)
    let seen = Lock<[CacheEvent<String>]>([])
    let token = level.observe { event in seen.withLock { $0.append(event) } }
    #expect(try await level.insertIfAbsent(1, forKey: "a"))
    #expect(try await !level.insertIfAbsent(2, forKey: "a"))
    await level.eventsDelivered()
    #expect(seen.withLock { $0 } == [.set("a")])
    token.cancel()
  }
}

// Serialized: threads of its own flat out (see MemoryCacheLevelConcurrencyTests).
@Suite("MemoryCacheLevel.insertIfAbsent under concurrency", .serialized)
struct MemoryCacheLevelInsertIfAbsentConcurrencyTests {
  @Test(
    "of many threads racing to insert one key, exactly one wins and its value is stored",
    arguments: MemoryCacheLevelTests.policies)
  func oneWinner(policy: EvictionPolicy) async {
    // Room for every key: no insert's value is evicted and re-inserted.
    let level = MemoryCacheLevel<Int, Int>(capacity: 1_000, policy: policy)
    let winners = Lock<[Int: [Int]]>([:])
    let rounds = 200
    await onThreads(4) { thread in
      for round in 0..<rounds {
        // Other traffic on the level meanwhile: sets and removes of other keys.
        level.set(thread, forKey: 1_000 + round % 16)
        if level.insertIfAbsent(thread * 1_000_000 + round, forKey: round).result?.value == true {
          winners.withLock { $0[round, default: []].append(thread * 1_000_000 + round) }
        }
        level.remove(1_000 + (round + 8) % 16)
      }
    }
    let won = winners.withLock { $0 }
    #expect(won.count == rounds)
    #expect(won.values.allSatisfy { $0.count == 1 })
    for (round, values) in won {
      #expect(level.get(round).result?.value == values.first)
    }
  }

  @Test("an insert that starts after a set of the key has returned never stores")
  func againstSets() async {
    let level = MemoryCacheLevel<Int, Int>(capacity: 1_000)
    let setKeys = Lock<Set<Int>>([])
    let wrongInserts = Lock(0)
    await onThreads(4) { thread in
      for key in 0..<500 {
        if thread == 0 {
          level.set(-1, forKey: key)
          setKeys.withLock { _ = $0.insert(key) }
        } else {
          let wasSet = setKeys.withLock { $0.contains(key) }
          let stored = level.insertIfAbsent(thread, forKey: key).result?.value == true
          if wasSet && stored { wrongInserts.withLock { $0 += 1 } }
        }
      }
    }
    #expect(wrongInserts.withLock { $0 } == 0)
    #expect(level.count == 500)
    // The set came last or first; either way no key holds a value the set did not write
    // unless an insert came first and the set then overwrote it: every key ends at -1.
    #expect((0..<500).allSatisfy { level.get($0).result?.value == -1 })
  }
}
