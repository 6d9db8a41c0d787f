import Foundation

@testable import Carlos

/// Runs `body(thread)` on `count` threads of their own, started together, and
/// returns when all have finished — without holding a cooperative thread meanwhile.
func onThreads(_ count: Int, _ body: @escaping @Sendable (_ thread: Int) -> Void) async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    let running = Lock(count)
    let go = DispatchSemaphore(value: 0)
    for thread in 0..<count {
      Thread {
        go.wait()
        body(thread)
        let last = running.withLock { running -> Bool in
          running -= 1
          return running == 0
        }
        if last { continuation.resume() }
      }.start()
    }
    for _ in 0..<count { go.signal() }
  }
}
