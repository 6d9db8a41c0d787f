import Foundation
import Testing

@testable import Carlos

@Suite("Observations as an AsyncSequence")
struct CacheEventStreamTests {
  @Test("events() yields the level's events in order")
  func yieldsEvents() async throws {
    let memory = MemoryCacheLevel<String, String>()
    let events = memory.events()
    try await memory.set("v", forKey: "a")
    try await memory.remove("a")
    var iterator = events.makeAsyncIterator()
    #expect(await iterator.next() == .set("a"))
    #expect(await iterator.next() == .removed("a"))
  }

  @Test(
    "events counted from the call: a task that consumes them later misses none (20 trials)",
    .timeLimit(.minutes(1)))
  func countsFromTheCall() async throws {
    for trial in 0..<20 {
      let memory = MemoryCacheLevel<String, String>()
      let events = memory.events()  // the documented pattern: subscribe, then start the task
      let watcher = Task {
        var received: [CacheEvent<String>] = []
        for await event in events.prefix(2) { received.append(event) }
        return received
      }
      try await memory.set("v", forKey: "k\(trial)")
      try await memory.remove("k\(trial)")
      #expect(await watcher.value == [.set("k\(trial)"), .removed("k\(trial)")])
    }
  }

  @Test("events(forKey:) yields only that key's events")
  func oneKey() async throws {
    let memory = MemoryCacheLevel<String, String>()
    let events = memory.events(forKey: "b")
    try await memory.set("v", forKey: "a")
    try await memory.set("v", forKey: "b")
    var iterator = events.makeAsyncIterator()
    #expect(await iterator.next() == .set("b"))
  }

  @Test("the sequence ends when the consuming task is cancelled", .timeLimit(.minutes(1)))
  func endsWithTheTask() async throws {
    let memory = MemoryCacheLevel<String, String>()
    let consumer = Task {
      var count = 0
      for await _ in memory.events() { count += 1 }
      return count
    }
    #expect(await eventually { memory.hub.isObserved })
    consumer.cancel()
    _ = await consumer.value
    #expect(!memory.hub.isObserved)
  }

  @Test("the sequence ends when the level is released", .timeLimit(.minutes(1)))
  func endsWithTheLevel() async throws {
    var memory: MemoryCacheLevel<String, String>? = MemoryCacheLevel()
    let events = memory!.events()
    try await memory!.set("v", forKey: "a")
    await memory!.eventsDelivered()
    memory = nil
    var seen: [CacheEvent<String>] = []
    for await event in events { seen.append(event) }
    #expect(seen == [.set("a")])
  }
}
