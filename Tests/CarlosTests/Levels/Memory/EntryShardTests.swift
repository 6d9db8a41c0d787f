import Synchronization
import Testing

@testable import Carlos

/// A key whose hash the test chooses, to force collisions and long probe runs.
private struct Collider: Hashable, Sendable {
  let id: Int
  let hash: Int

  func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

@Suite("EntryShard")
struct EntryShardTests {
  private typealias Shard = EntryShard<Collider, Int>

  private static func entry(_ key: Collider, ticket: UInt64 = 1) -> Shard.Entry {
    Shard.Entry(
      key: key, value: key.id, cost: 1, ticket: ticket, storedAt: 0, deadline: TimerWheel.none,
      slides: false)
  }

  @Test("every key inserted is found by its hash, also when all hashes collide")
  func findsColliding() {
    var shard = Shard()
    let keys = (0..<100).map { Collider(id: $0, hash: 0x4200) }  // one home bucket for all
    for (index, key) in keys.enumerated() {
      shard.insert(Self.entry(key, ticket: UInt64(index + 1)), hash: key.hash)
    }
    #expect(shard.count == 100)
    for (index, key) in keys.enumerated() {
      let bucket = shard.find(key, hash: key.hash)
      #expect(bucket != nil)
      if let bucket { #expect(shard.entries[bucket].value == key.id) }
      #expect(shard.find(ticket: UInt64(index + 1), hash: key.hash) == bucket)
    }
    #expect(shard.find(Collider(id: 1_000, hash: 0x4200), hash: 0x4200) == nil)
  }

  @Test(
    "removing shifts later entries back, so none is lost (random workload against a dictionary)")
  func removeKeepsOthersReachable() {
    var random = SplitMix64(seed: 7)
    var shard = Shard()
    var model: [Collider: Int] = [:]
    for _ in 0..<20_000 {
      // Few distinct hashes make long runs that wrap around the table's end.
      let key = Collider(
        id: Int.random(in: 0..<300, using: &random),
        hash: Int.random(in: 0..<8, using: &random) << 8 | 0xFF)
      if let bucket = shard.find(key, hash: key.hash) {
        #expect(model[key] != nil)
        if Bool.random(using: &random) {
          #expect(shard.remove(at: bucket).key == key)
          model[key] = nil
        }
      } else {
        #expect(model[key] == nil)
        shard.insert(Self.entry(key), hash: key.hash)
        model[key] = key.id
      }
    }
    #expect(shard.count == model.count)
    for key in model.keys { #expect(shard.find(key, hash: key.hash) != nil) }
  }

  @Test("a hash of 0 works like any other")
  func zeroHash() {
    var shard = Shard()
    let key = Collider(id: 1, hash: 0)
    shard.insert(Self.entry(key), hash: 0)
    #expect(shard.find(key, hash: 0) != nil)
    shard.removeAll()
    #expect(shard.find(key, hash: 0) == nil)
    #expect(shard.count == 0)
  }

  @Test("a read shares one completed future per stored value and reports the entry's ticket")
  func readSharesFuture() {
    var shard = Shard()
    let key = Collider(id: 5, hash: 0x1234)
    shard.insert(Self.entry(key, ticket: 42), hash: key.hash)
    let latest = CacheLineBox(Atomic<Int64>(.min))
    var report = Shard.ReadReport()
    let first = shard.read(
      key, hash: key.hash, clock: .manual(ManualClock()), latest: latest.pointer, slide: 0,
      report: &report)
    #expect(first?.result?.value == 5)
    #expect(report.ticket == 42)
    var again = Shard.ReadReport()
    #expect(
      shard.read(
        key, hash: key.hash, clock: .manual(ManualClock()), latest: latest.pointer, slide: 0,
        report: &again)
        === first)
    #expect(shard.hits == 2 && shard.misses == 0)
    var missed = Shard.ReadReport()
    #expect(
      shard.read(
        Collider(id: 6, hash: 0x1234), hash: 0x1234, clock: .manual(ManualClock()),
        latest: latest.pointer, slide: 0,
        report: &missed) == nil)
    #expect(missed.ticket == 0 && shard.misses == 1)
  }

  @Test(
    "a read of an entry that slides moves its deadline by the level's slide; its ticket stays clean"
  )
  func slidingRead() {
    var shard = Shard()
    let key = Collider(id: 9, hash: 0x99)
    var sliding = Shard.Entry(
      key: key, value: 9, cost: 1, ticket: 42, storedAt: 0, deadline: 1_000, slides: true)
    #expect(sliding.ticket == 42 && sliding.slides)
    sliding.deadline = 1_000
    shard.insert(sliding, hash: key.hash)
    let clock = ManualClock()
    let latest = CacheLineBox(Atomic<Int64>(.min))
    var report = Shard.ReadReport()
    let now = ClockSource.manual(clock).nanoseconds()
    let bucket = shard.find(key, hash: key.hash)!
    shard.entries[bucket].deadline = now + 1_000
    _ = shard.read(
      key, hash: key.hash, clock: .manual(clock), latest: latest.pointer, slide: 5_000,
      report: &report)
    #expect(report.ticket == 42)
    #expect(shard.entries[bucket].deadline == now + 5_000)
    #expect(shard.find(ticket: 42, hash: key.hash) == bucket)
  }

  @Test("a value is replaced in place only by one of the same cost, and only if it never expires")
  func replacesSameCost() {
    var shard = Shard()
    let (plain, expiring) = (Collider(id: 1, hash: 0x10), Collider(id: 2, hash: 0x20))
    shard.insert(Self.entry(plain, ticket: 7), hash: plain.hash)
    var timed = Self.entry(expiring, ticket: 8)
    timed.deadline = 1_000
    shard.insert(timed, hash: expiring.hash)
    let latest = CacheLineBox(Atomic<Int64>(.min))
    var report = Shard.ReadReport()
    let before = shard.read(
      plain, hash: plain.hash, clock: .manual(ManualClock()), latest: latest.pointer, slide: 0,
      report: &report)

    #expect(shard.replace(plain, hash: plain.hash, with: 10, cost: 2, now: 5) == 0)
    #expect(shard.replace(expiring, hash: expiring.hash, with: 10, cost: 1, now: 5) == 0)
    #expect(shard.replace(Collider(id: 3, hash: 0x10), hash: 0x10, with: 10, cost: 1, now: 5) == 0)
    #expect(shard.replace(plain, hash: plain.hash, with: 10, cost: 1, now: 5) == 7)

    let bucket = shard.find(plain, hash: plain.hash)!
    #expect(shard.entries[bucket].value == 10)
    #expect(shard.entries[bucket].storedAt == 5)
    let after = shard.read(
      plain, hash: plain.hash, clock: .manual(ManualClock()), latest: latest.pointer, slide: 0,
      report: &report)
    #expect(after !== before)
    #expect(after?.result?.value == 10)
    #expect(shard.entries[shard.find(expiring, hash: expiring.hash)!].value == 2)
  }
}
