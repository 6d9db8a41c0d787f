#if Postgres
import Foundation
import Synchronization
import Testing

@testable import CarlosPostgres

/// The one timer behind every operation's deadline: it wakes for deadlines that
/// expire, not per operation and not per tick.
@Suite("DeadlineWatcher")
struct DeadlineWatcherTests {
  @Test("a thousand operations that finish before their deadline cost no wake-up")
  func finishedOperationsCostNoWakeUp() async throws {
    let watcher = DeadlineWatcher()
    let expired = Atomic<Int>(0)
    for round in 0..<1000 {
      let id = watcher.arm(.seconds(10)) { expired.add(1, ordering: .relaxed) }
      if round % 100 == 0 { try await Task.sleep(for: .milliseconds(5)) }
      watcher.disarm(id)
    }
    #expect(watcher.wakeUps == 0)
    #expect(expired.load(ordering: .relaxed) == 0)
  }

  @Test("a deadline earlier than the pending ones expires first; each expires once")
  func earlierDeadlineExpiresFirst() async throws {
    let watcher = DeadlineWatcher()
    let order = Mutex<[String]>([])
    _ = watcher.arm(.milliseconds(400)) { order.withLock { $0.append("late") } }
    _ = watcher.arm(.milliseconds(20)) { order.withLock { $0.append("early") } }
    try await eventually(within: .seconds(20), "both deadlines") {
      if order.withLock({ $0.count }) < 2 { throw WaitTimedOut(what: "two expiries") }
    }
    try await Task.sleep(for: .milliseconds(50))
    #expect(order.withLock { $0 } == ["early", "late"])
    #expect(watcher.wakeUps <= 3, "one wake-up per deadline (and at most one spare)")
  }
}
#endif
