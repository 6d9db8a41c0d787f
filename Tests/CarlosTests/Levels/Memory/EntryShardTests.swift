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
  private typealias Records = EntryRecords<Collider, Int>

  /// Records and a shard, with helpers to store entries as the level does.
  private final class Fixture {
    var store: NodeStore
    let records: Records
    var shard = Shard()
    var free: [Int] = []

    init(capacity: Int = 1 << 20) {
      records = Records(capacity: capacity)
      store = records.store
    }

    deinit {
      shard.removeAll(in: records)
      records.deallocate()
    }

    /// Stores `key` (its value is its id) in a new slot; returns the slot.
    @discardableResult
    func insert(
      _ key: Collider, deadline: Int64 = TimerWheel.none, slides: Bool = false, cost: Int = 1
    ) -> Int {
      let slot = free.popLast() ?? store.append()
      records.initialize(slot, to: .init(key: key, value: key.id, deadline: deadline, storedAt: 0))
      records.node(slot).pointee.flags = slides ? Records.slidesFlag : 0
      records.node(slot).pointee.cost = cost
      shard.insert(slot: slot, hash: key.hash)
      return slot
    }

    /// Removes the entry in `bucket`; returns its key.
    func remove(at bucket: Int) -> Collider {
      let slot = shard.remove(at: bucket)
      free.append(slot)
      records.node(slot).pointee.generation &+= 1
      return records.take(slot).key
    }

    func read(
      _ key: Collider, thread: Int = 0, clock: ManualClock = ManualClock(), slide: Int64 = 0
    ) -> (Future<Int>?, Shard.ReadReport) {
      let latest = CacheLineBox(Atomic<Int64>(.min))
      var report = Shard.ReadReport()
      let future = shard.read(
        key, hash: key.hash, in: records, thread: thread, clock: .manual(clock),
        latest: latest.pointer,
        slide: slide, report: &report)
      return (future, report)
    }
  }

  @Test("every key inserted is found by its hash, also when all hashes collide")
  func findsColliding() {
    let fixture = Fixture()
    let keys = (0..<100).map { Collider(id: $0, hash: 0x4200) }  // one home bucket for all
    var slots: [Int] = []
    for key in keys { slots.append(fixture.insert(key)) }
    #expect(fixture.shard.count == 100)
    for (index, key) in keys.enumerated() {
      let bucket = fixture.shard.find(key, hash: key.hash, in: fixture.records)
      #expect(bucket != nil)
      if let bucket {
        #expect(fixture.shard.slot(at: bucket) == slots[index])
        #expect(fixture.records.entry(slots[index]).pointee.value == key.id)
      }
      #expect(fixture.shard.find(slot: slots[index], hash: key.hash) == bucket)
    }
    #expect(
      fixture.shard.find(Collider(id: 1_000, hash: 0x4200), hash: 0x4200, in: fixture.records)
        == nil)
  }

  @Test(
    "removing shifts later buckets back, so none is lost (random workload against a dictionary)")
  func removeKeepsOthersReachable() {
    var random = SplitMix64(seed: 7)
    let fixture = Fixture()
    var model: [Collider: Int] = [:]
    for _ in 0..<20_000 {
      // Few distinct tags make long runs that wrap around the table's end.
      let key = Collider(
        id: Int.random(in: 0..<300, using: &random),
        hash: (Int.random(in: 0..<8, using: &random) | 0x7FFF_FFF8) << 32 | 0xFF)
      if let bucket = fixture.shard.find(key, hash: key.hash, in: fixture.records) {
        #expect(model[key] != nil)
        if Bool.random(using: &random) {
          #expect(fixture.remove(at: bucket) == key)
          model[key] = nil
        }
      } else {
        #expect(model[key] == nil)
        fixture.insert(key)
        model[key] = key.id
      }
    }
    #expect(fixture.shard.count == model.count)
    for key in model.keys {
      #expect(fixture.shard.find(key, hash: key.hash, in: fixture.records) != nil)
    }
  }

  @Test("a hash of 0 works like any other")
  func zeroHash() {
    let fixture = Fixture()
    let key = Collider(id: 1, hash: 0)
    fixture.insert(key)
    #expect(fixture.shard.find(key, hash: 0, in: fixture.records) != nil)
    fixture.shard.removeAll(in: fixture.records)
    #expect(fixture.shard.find(key, hash: 0, in: fixture.records) == nil)
    #expect(fixture.shard.count == 0)
  }

  @Test("a read shares one completed future per stored value and reports the entry's ticket")
  func readSharesFuture() {
    let fixture = Fixture()
    let key = Collider(id: 5, hash: 0x1234)
    let slot = fixture.insert(key)
    fixture.records.node(slot).pointee.generation = 3
    let (first, report) = fixture.read(key)
    #expect(first?.result?.value == 5)
    #expect(report.ticket == ReadTicket.make(slot: slot, generation: 3))
    #expect(fixture.read(key).0 === first)
    #expect(fixture.shard.hits == 2 && fixture.shard.misses == 0)
    let (missed, missReport) = fixture.read(Collider(id: 6, hash: 0x1234))
    #expect(missed == nil)
    #expect(missReport.ticket == 0 && fixture.shard.misses == 1)
  }

  @Test("slots from the level's kept-future limit on get a new future per read")
  func largeSlotsMakeFutures() {
    let fixture = Fixture(capacity: 2)
    #expect(fixture.records.keptFutures == 2)
    let keys = (0..<3).map { Collider(id: $0, hash: $0 << 32) }
    for key in keys { fixture.insert(key) }
    #expect(fixture.read(keys[1]).0 === fixture.read(keys[1]).0)
    let (first, _) = fixture.read(keys[2])
    let (second, _) = fixture.read(keys[2])
    #expect(first !== second)
    #expect(first?.result?.value == 2 && second?.result?.value == 2)
  }

  @Test(
    "beyond the kept futures, a thread's spare future is handed out again once nobody else holds it, never while held"
  )
  func spareFutures() {
    let fixture = Fixture(capacity: Records.keptFutureSlots + 10)
    var keys: [Collider] = []
    for id in 0..<(Records.keptFutureSlots + 3) {
      let key = Collider(id: id, hash: id << 32 | 1)
      let slot = fixture.insert(key)
      if slot >= Records.keptFutureSlots { keys.append(key) }
    }
    #expect(keys.count == 3)
    var first = fixture.read(keys[0], thread: 3).0
    var second = fixture.read(keys[1], thread: 3).0
    #expect(first !== second)  // the first is still held: the second is a new future
    #expect(first?.result?.value == keys[0].id && second?.result?.value == keys[1].id)
    let secondID = second.map(ObjectIdentifier.init)
    second = nil
    let third = fixture.read(keys[2], thread: 3).0
    #expect(third.map(ObjectIdentifier.init) == secondID)  // let go: handed out again
    #expect(third?.result?.value == keys[2].id && first?.result?.value == keys[0].id)
    let other = fixture.read(keys[0], thread: 4).0  // another thread has a spare of its own
    #expect(other !== third && other?.result?.value == keys[0].id)
    let unnumbered = fixture.read(keys[1], thread: Records.spareThreads).0
    #expect(unnumbered !== third && unnumbered?.result?.value == keys[1].id)
    first = nil
  }

  @Test("a read of an entry that slides moves its deadline by the level's slide")
  func slidingRead() {
    let fixture = Fixture()
    let key = Collider(id: 9, hash: 0x99)
    let clock = ManualClock()
    let now = ClockSource.manual(clock).nanoseconds()
    let slot = fixture.insert(key, deadline: now + 1_000, slides: true)
    #expect(fixture.records.slides(slot))
    let (_, report) = fixture.read(key, clock: clock, slide: 5_000)
    #expect(report.ticket == fixture.records.ticket(slot))
    #expect(fixture.records.entry(slot).pointee.deadline == now + 5_000)
  }

  @Test(
    "a value is replaced in place only by one of the same cost that expires no earlier, and never when reads extend its life"
  )
  func replacesSameCost() {
    let fixture = Fixture()
    let (plain, expiring) = (Collider(id: 1, hash: 0x10), Collider(id: 2, hash: 0x20))
    let sliding = Collider(id: 4, hash: 0x40)
    let never = TimerWheel.none
    let plainSlot = fixture.insert(plain)
    let expiringSlot = fixture.insert(expiring, deadline: 1_000)
    let slidingSlot = fixture.insert(sliding, deadline: 1_000, slides: true)
    let (before, _) = fixture.read(plain)
    let records = fixture.records
    func replace(_ key: Collider, cost: Int = 1, deadline: Int64) -> UInt64 {
      fixture.shard.replace(
        key, hash: key.hash, with: 10, cost: cost, now: 5, deadline: deadline, in: records)
    }

    #expect(replace(plain, cost: 2, deadline: never) == 0, "another cost")
    #expect(replace(plain, deadline: 2_000) == 0, "a deadline where there was none")
    #expect(replace(expiring, deadline: never) == 0, "no deadline where there was one")
    #expect(replace(expiring, deadline: 999) == 0, "an earlier deadline")
    #expect(replace(sliding, deadline: 2_000) == 0, "reads extend its life")
    #expect(replace(Collider(id: 3, hash: 0x10), deadline: never) == 0, "another key")
    #expect(replace(plain, deadline: never) == records.ticket(plainSlot))
    #expect(replace(expiring, deadline: 1_500) == records.ticket(expiringSlot))

    #expect(records.entry(plainSlot).pointee.value == 10)
    #expect(records.entry(plainSlot).pointee.storedAt == 5)
    let (after, _) = fixture.read(plain)
    #expect(after !== before)
    #expect(after?.result?.value == 10)
    #expect(records.entry(expiringSlot).pointee.value == 10)
    #expect(records.entry(expiringSlot).pointee.deadline == 1_500)
    #expect(records.entry(slidingSlot).pointee.value == 4)
  }

  @Test("records keep their entries and nodes as the store doubles")
  func recordsSurviveGrowth() {
    let fixture = Fixture()
    for id in 0..<5_000 {
      let slot = fixture.insert(Collider(id: id, hash: id &* 0x5851_F42D_4C95_7F2D))
      fixture.records.node(slot).pointee.hash = UInt64(id)
    }
    #expect(fixture.store.count == 5_000 && fixture.store.capacity == 8_192)
    for slot in 0..<5_000 {
      #expect(fixture.records.entry(slot).pointee.value == slot)
      #expect(fixture.records.node(slot).pointee.hash == UInt64(slot))
    }
  }
}
