import Carlos
import Foundation
import Testing

/// Collects the events an observer receives.
final class EventLog<Key: Sendable & Equatable>: Sendable {
  private let events = Lock<[CacheEvent<Key>]>([])
  var all: [CacheEvent<Key>] { events.withLock { $0 } }
  func append(_ event: CacheEvent<Key>) { events.withLock { $0.append(event) } }
}

@Suite("Observations")
struct ObservationTests {
  @Test(
    "a level's observer sees set, removed, evicted, expired, cleared and memory warnings, in order")
  func everyEvent() async throws {
    let clock = ManualClock()
    let memory = MemoryCacheLevel<Int, Int>(capacity: 2, policy: .lru, clock: clock)
    let log = EventLog<Int>()
    let token = memory.observe { log.append($0) }
    try await memory.set(1, forKey: 1)
    try await memory.set(2, forKey: 2, expiry: .after(.seconds(1)))
    try await memory.set(3, forKey: 3)  // evicts 1
    try await memory.remove(3)
    try await memory.remove(3)  // nothing to remove: no event
    clock.advance(by: .seconds(2))
    _ = try? await memory.get(2)
    memory.clear()
    memory.onMemoryWarning()
    await memory.eventsDelivered()
    #expect(
      log.all == [
        .set(1), .set(2), .set(3), .evicted(1), .removed(3), .expired(2), .cleared, .memoryWarning,
        .cleared,
      ])
    withExtendedLifetime(token) {}
  }

  @Test("an observer of one key sees only that key's events (and clears)")
  func oneKey() async throws {
    let memory = MemoryCacheLevel<String, Int>(capacity: 100)
    let log = EventLog<String>()
    let token = memory.observe(key: "a") { log.append($0) }
    try await memory.set(1, forKey: "a")
    try await memory.set(2, forKey: "b")
    try await memory.remove("b")
    try await memory.remove("a")
    memory.clear()
    await memory.eventsDelivered()
    #expect(log.all == [.set("a"), .removed("a"), .cleared])
    token.cancel()
  }

  @Test("cancelling or dropping the token ends the observation")
  func tokens() async throws {
    let memory = MemoryCacheLevel<Int, Int>(capacity: 100)
    let cancelled = EventLog<Int>()
    let dropped = EventLog<Int>()
    let token = memory.observe { cancelled.append($0) }
    var other: ObservationToken? = memory.observe { dropped.append($0) }
    try await memory.set(1, forKey: 1)
    await memory.eventsDelivered()
    token.cancel()
    other = nil
    try await memory.set(2, forKey: 2)
    await memory.eventsDelivered()
    #expect(cancelled.all == [.set(1)])
    #expect(dropped.all == [.set(1)])
    #expect(other == nil)
  }

  @Test("callbacks run off the level's lock: a callback may use the level")
  func reentrant() async throws {
    let memory = MemoryCacheLevel<Int, Int>(capacity: 100)
    let seen = EventLog<Int>()
    let token = memory.observe { event in
      if case .set(let key) = event, let value = memory.get(key).result?.value {
        seen.append(.set(value))
      }
    }
    try await memory.set(5, forKey: 1)
    await memory.eventsDelivered()
    #expect(seen.all == [.set(5)])
    withExtendedLifetime(token) {}
  }

  @Test("events of one key arrive in the order of the changes, under concurrent writers")
  func orderPerKey() async {
    let memory = MemoryCacheLevel<Int, Int>(capacity: 10_000)
    let log = EventLog<Int>()
    let token = memory.observe(key: 7) { log.append($0) }
    let futures = await issueConcurrently(threads: 4, perThread: 500) {
      thread, index -> Future<Void> in
      thread == 0 ? memory.set(index, forKey: 7) : memory.set(index, forKey: thread * 1_000 + index)
    }
    _ = await waitUntilCompleted(futures)
    await memory.eventsDelivered()
    #expect(log.all == (0..<500).map { _ in CacheEvent<Int>.set(7) })
    #expect(memory.get(7).result?.value == 499)
    withExtendedLifetime(token) {}
  }
}
