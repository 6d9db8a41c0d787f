#if HTTP
import Testing

@testable import CarlosHTTP

@Suite("TransferWatcher")
struct TransferWatcherTests {
  private func watched(timeout: Duration, deadline: Duration?) -> TransferWatcher.Watched {
    let start = ContinuousClock.now
    return TransferWatcher.Watched(
      activity: TransferActivity(), timeout: timeout,
      deadline: deadline.map { ($0, start + $0) }, expire: {})
  }

  @Test("A transfer expires for the limit it passed first, however late the watcher looks")
  func expiryNamesTheFirstLimitPassed() {
    let now = ContinuousClock.now
    let short = watched(timeout: .seconds(10), deadline: .milliseconds(300))
    #expect(short.expiry(at: now) == nil)
    #expect(short.expiry(at: now + .seconds(1)) == .deadlineExceeded(.milliseconds(300)))
    // A watcher starved past both limits (seen on a loaded machine).
    #expect(short.expiry(at: now + .seconds(11)) == .deadlineExceeded(.milliseconds(300)))
    let long = watched(timeout: .milliseconds(300), deadline: .seconds(10))
    #expect(long.expiry(at: now + .seconds(1)) == .timedOut(.milliseconds(300)))
    #expect(long.expiry(at: now + .seconds(11)) == .timedOut(.milliseconds(300)))
    let unlimited = watched(timeout: .milliseconds(300), deadline: nil)
    #expect(unlimited.expiry(at: now + .seconds(11)) == .timedOut(.milliseconds(300)))
  }
}
#endif
