import Dispatch
import Synchronization
import Testing

@testable import Carlos

/// A buffer that threads can share.
private final class Shared: Sendable {
  let buffer: ReadBuffer
  init(_ buffer: consuming ReadBuffer) { self.buffer = buffer }
}

@Suite("ReadBuffer")
struct ReadBufferTests {
  /// The notes a drain hands over, as strings.
  private static func drained(_ buffer: borrowing ReadBuffer) -> [String] {
    var notes: [String] = []
    buffer.drain { note in
      switch note {
      case .hit(let ticket): notes.append("hit \(ticket)")
      case .update(let ticket): notes.append("update \(ticket)")
      case .miss(let hash): notes.append("miss \(String(hash, radix: 16))")
      }
    }
    return notes
  }

  @Test("one thread's notes come back in the order they were written, misses with their whole hash")
  func keepsOrder() {
    let buffer = ReadBuffer(exclusive: 4, shared: 1)
    _ = buffer.recordHit(ReadTicket.make(slot: 0, generation: 0), thread: 1)
    _ = buffer.recordMiss(hash: 0xFFFF_FFFF_FFFF_FFFF, thread: 1)
    _ = buffer.recordHit(ReadTicket.make(slot: 7, generation: 3), thread: 1)
    _ = buffer.recordMiss(hash: 0, thread: 1)
    _ = buffer.recordUpdate(ReadTicket.make(slot: 7, generation: 0x7FFF_FFFF), thread: 1)
    let expected: [String] = [
      "hit \(ReadTicket.make(slot: 0, generation: 0))", "miss ffffffffffffffff",
      "hit \(ReadTicket.make(slot: 7, generation: 3))", "miss 0",
      "update \(ReadTicket.make(slot: 7, generation: 0x7FFF_FFFF))",
    ]
    #expect(Self.drained(buffer) == expected)
    #expect(Self.drained(buffer).isEmpty)
  }

  @Test("an update that finds the ring full is refused, never dropped", arguments: [0, 7])
  func updatesAreNotDropped(thread: Int) {
    let buffer = ReadBuffer(exclusive: 4, shared: 1)
    for note in 1...32 { _ = buffer.recordHit(UInt64(note), thread: thread) }
    #expect(buffer.recordUpdate(ReadTicket.make(slot: 1, generation: 1), thread: thread) == nil)
    #expect(Self.drained(buffer).count == 32)
    #expect(buffer.recordUpdate(ReadTicket.make(slot: 1, generation: 1), thread: thread) == false)
    #expect(Self.drained(buffer) == ["update \(ReadTicket.make(slot: 1, generation: 1))"])
  }

  @Test(
    "a thread is asked to drain when its ring becomes half full, then once per 16 dropped notes",
    arguments: [0, 7])  // a stripe of its own; a shared stripe
  func drainsAndDrops(thread: Int) {
    let buffer = ReadBuffer(exclusive: 1, shared: 1)
    var asked: [Int] = []
    for note in 1...64 where buffer.recordHit(UInt64(note), thread: thread) {
      asked.append(note)
    }
    // Half full at note 16; full after 32; notes 33...64 are dropped.
    #expect(asked == [ReadBuffer.drainThreshold, 48, 64])
    let notes = Self.drained(buffer)
    #expect(notes.count == ReadBuffer.cells)
    #expect(notes.first == "hit 1" && notes.last == "hit \(ReadBuffer.cells)")
    var again: [Int] = []
    for note in 1...20 where buffer.recordHit(UInt64(note), thread: thread) {
      again.append(note)
    }
    #expect(again == [ReadBuffer.drainThreshold])
    #expect(Self.drained(buffer).count == 20)
  }

  @Test("tickets name slot and generation, and are never 0 nor look like a miss or an update")
  func tickets() {
    for (slot, generation) in [(0, 0 as UInt32), (5, 9), (0x7FFF_FFFD, UInt32.max)] {
      let ticket = ReadTicket.make(slot: slot, generation: generation)
      #expect(ticket != 0 && ticket & ReadBuffer.missFlag == 0)
      #expect(ticket & ReadTicket.updateFlag == 0)
      #expect(ReadTicket.slot(ticket) == slot)
      #expect(ReadTicket.generation(ticket) == generation & 0x7FFF_FFFF)
    }
  }

  @Test(
    "threads sharing stripes while another drains: no note is duplicated, corrupted or reordered")
  func concurrentWriters() async {
    // Threads 0 and 1 have stripes of their own; 2 and 3 share one, so their
    // reservations collide.
    let shared = Shared(ReadBuffer(exclusive: 2, shared: 1))
    let drained = Lock<[UInt64]>([])
    let finished = Atomic<Int>(0)
    // Threads 0–3 write; thread 4 drains until they have finished (on a thread of
    // its own: a drain loop must not hold one of the few cooperative threads).
    await onThreads(5) { thread in
      guard thread < 4 else {
        while finished.load(ordering: .acquiring) < 4 {
          var batch: [UInt64] = []
          shared.buffer.drain { if case .hit(let note) = $0 { batch.append(note) } }
          drained.withLock { $0.append(contentsOf: batch) }
        }
        return
      }
      for sequence in 1...10_000 {
        _ = shared.buffer.recordHit(UInt64(thread) << 32 | UInt64(sequence), thread: thread)
      }
      finished.add(1, ordering: .releasing)
    }
    var notes = drained.withLock { $0 }
    shared.buffer.drain { if case .hit(let note) = $0 { notes.append(note) } }
    #expect(Set(notes).count == notes.count)
    var last = [UInt64](repeating: 0, count: 4)
    var reordered = 0
    for note in notes {
      let thread = Int(note >> 32)
      let sequence = note & 0xFFFF_FFFF
      #expect(thread < 4 && (1...10_000).contains(sequence))
      guard thread < 4 else { continue }
      if sequence <= last[thread] { reordered += 1 }
      last[thread] = sequence
    }
    #expect(reordered == 0)
    #expect(!notes.isEmpty)
  }
}
