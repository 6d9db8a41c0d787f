import Carlos
import Dispatch
import Testing

@Suite("Dispatching to a queue")
struct DispatchTests {
  /// A level that records, for each operation, whether it ran on the queue marked with `marker`.
  final class QueueSpy: Sendable {
    let marker = DispatchSpecificKey<String>()
    let queue = DispatchQueue(label: "DispatchTests.queue")
    let seen = Lock<[String: Bool]>([:])

    init() {
      queue.setSpecific(key: marker, value: "target")
    }

    func note(_ operation: String) {
      let onQueue = DispatchQueue.getSpecific(key: marker) == "target"
      seen.withLock { $0[operation] = onQueue }
    }

    var level: BasicCache<String, Int> {
      BasicCache(
        getClosure: { key in
          self.note("get")
          return Future(key.count)
        },
        setClosure: { _, _ in
          self.note("set")
          return Future()
        },
        clearClosure: { self.note("clear") },
        memoryClosure: { self.note("memory") }
      )
    }
  }

  @Test("get, set, clear and memory warnings all run on the given queue")
  func everyOperationOnQueue() async {
    let spy = QueueSpy()
    let cache = spy.level.dispatch(spy.queue)
    let get: Future<_> = cache.get("abc")
    let set: Future<_> = cache.set(1, forKey: "k")
    cache.clear()
    cache.onMemoryWarning()
    let deadline = ContinuousClock.now + .seconds(20)
    while spy.seen.withLock({ $0.count }) < 4, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(1))
    }
    #expect(await waitUntilCompleted([get]))
    #expect(await waitUntilCompleted([set]))
    #expect(get.result?.value == 3)
    #expect(set.result?.value != nil)
    #expect(spy.seen.withLock { $0 } == ["get": true, "set": true, "clear": true, "memory": true])
  }

  @Test("the level's failures come through")
  func failuresComeThrough() async {
    let queue = DispatchQueue(label: "DispatchTests.failures")
    let cache = SpyLevel<String, Int>().dispatch(queue)
    let get: Future<_> = cache.get("missing")
    #expect(await waitUntilCompleted([get]))
    #expect(get.result?.error as? FetchError == .valueNotInCache)
  }

  @Test("a get cancelled before it reaches the queue never runs")
  func cancelledBeforeRunning() {
    let queue = DispatchQueue(label: "DispatchTests.blocked")
    let gate = DispatchSemaphore(value: 0)
    queue.async { gate.wait() }
    let spy = SpyLevel<String, Int>(["k": 1])
    let cache = spy.dispatch(queue)
    let get = cache.get("k")
    get.cancel()
    gate.signal()
    queue.sync {}
    #expect(Outcome(get) == .cancelled)
    #expect(spy.gets.isEmpty)
  }

  @Test("cancelling a get that is running cancels the level's request")
  func cancelWhileRunning() {
    let queue = DispatchQueue(label: "DispatchTests.running")
    let probe = ProbeLevel<String>(.held)
    let get = probe.dispatch(queue).get("k")
    queue.sync {}
    #expect(probe.getCount == 1)
    get.cancel()
    #expect(probe.cancelled == [0])
  }
}
