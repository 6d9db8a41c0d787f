import Carlos
import Testing

@Suite("Capping requests", .recordingLog)
struct CapRequestsTests {
  @Test(
    "10,000 requests from 8 threads never run more than n inner gets at once",
    arguments: [1, 3, 16])
  func neverMoreThanLimit(limit: Int) async {
    let probe = ProbeLevel<Int>(.background)
    let capped = probe.capRequests(limit)
    let futures = await issueConcurrently(threads: 8, perThread: 1_250) { thread, index in
      capped.get(thread * 10_000 + index)
    }
    #expect(futures.count == 10_000)
    let allCompleted = await waitUntilCompleted(futures, timeout: patience)
    #expect(allCompleted)
    let failures = futures.filter { $0.result?.value == nil }.count
    #expect(failures == 0)
    #expect(probe.getCount == 10_000)
    #expect(probe.maxInFlight <= limit)
    #expect(probe.maxInFlight >= 1)
    #expect(probe.inFlight == 0)
  }

  @Test(
    "under a composition (memory >>> capped), 1,000 concurrent misses never run more than n inner gets at once",
    arguments: [1, 3])
  func throughComposition(limit: Int) async {
    let probe = ProbeLevel<Int>(.background)
    let cache = MemoryCacheLevel<Int, String>(capacity: 10_000) >>> probe.capRequests(limit)
    let futures = await issueConcurrently(threads: 4, perThread: 250) { thread, index in
      cache.get(thread * 1_000 + index)
    }
    #expect(await waitUntilCompleted(futures, timeout: patience))
    #expect(futures.allSatisfy { $0.result?.value != nil })
    #expect(probe.getCount == 1_000)
    #expect(probe.maxInFlight <= limit && probe.maxInFlight >= 1)
  }

  @Test("gets and gets with their source wait in one line, first in first out")
  func withSourceWaitsInLine() {
    let probe = ProbeLevel<Int>(.held)
    let capped = probe.capRequests(1)
    let first = capped.get(1)
    let second = capped.getWithSource(2)
    let third = capped.get(3)
    #expect(probe.gets == [1])
    probe.completeAll()
    #expect(probe.gets == [1, 2])
    probe.completeAll()
    #expect(probe.gets == [1, 2, 3])
    probe.completeAll()
    #expect(first.result?.value == "1#0")
    #expect(second.result?.value?.value == "2#1")
    #expect(third.result?.value == "3#2")
  }

  @Test("inner gets that complete at once never exceed the cap either", arguments: [1, 2])
  func immediateInnerLevel(limit: Int) async {
    let probe = ProbeLevel<Int>(.immediate)
    let capped = probe.capRequests(limit)
    let futures = await issueConcurrently(threads: 8, perThread: 500) { thread, index in
      capped.get(thread * 1_000 + index)
    }
    let failures = futures.filter { $0.result?.value == nil }.count
    #expect(failures == 0)
    #expect(probe.maxInFlight <= limit)
  }

  @Test("waiting requests start in the order they were made", arguments: [1, 3])
  func firstInFirstOut(limit: Int) {
    let probe = ProbeLevel<Int>(.held)
    let capped = probe.capRequests(limit)
    let futures = (0..<20).map { capped.get($0) }
    #expect(probe.gets == Array(0..<limit))
    // Complete the running requests newest first: the order they started in must not matter.
    var rounds = 0
    while let newest = probe.open.last, rounds < 100 {
      probe.complete(newest.number)
      rounds += 1
    }
    #expect(probe.gets == Array(0..<20))
    let failures = futures.filter { $0.result?.value == nil }.count
    #expect(failures == 0)
  }

  @Test("a waiting request that is cancelled never starts")
  func cancelledWaiterNeverStarts() {
    let probe = ProbeLevel<String>(.held)
    let capped = probe.capRequests(1)
    let a = capped.get("a")
    let b = capped.get("b")
    let c = capped.get("c")
    let d = capped.get("d")
    c.cancel()
    #expect(Outcome(c) == .cancelled)
    probe.complete(0)
    #expect(probe.gets == ["a", "b"])
    probe.complete(1)
    #expect(probe.gets == ["a", "b", "d"])
    probe.complete(2)
    #expect(Outcome(a) == .success("a#0"))
    #expect(Outcome(b) == .success("b#1"))
    #expect(Outcome(d) == .success("d#2"))
    #expect(probe.getCount == 3)
  }

  @Test("cancelling a running request cancels the inner request and frees its slot")
  func cancelRunning() {
    let probe = ProbeLevel<String>(.held)
    let capped = probe.capRequests(1)
    let a = capped.get("a")
    let b = capped.get("b")
    a.cancel()
    #expect(probe.cancelled == [0])
    #expect(probe.gets == ["a", "b"])
    b.cancel()
    #expect(probe.cancelled == [0, 1])
    #expect(Outcome(capped.get("c")) == .pending)
    #expect(probe.gets == ["a", "b", "c"])
  }

  @Test("a failing request frees its slot, and its caller gets the failure")
  func failureFreesSlot() {
    let probe = ProbeLevel<String>(.held)
    let capped = probe.capRequests(1)
    let a = capped.get("a")
    let b = capped.get("b")
    probe.complete(0, with: .error(TestError(1)))
    #expect(a.result?.error as? TestError == TestError(1))
    #expect(probe.gets == ["a", "b"])
    probe.completeAll()
    #expect(Outcome(b) == .success("b#1"))
  }

  @Test("sets are not capped, and clear and memory warnings pass through")
  func setsAreNotCapped() {
    let spy = SpyLevel<String, Int>(holdsGets: true)
    let capped = spy.capRequests(1)
    let pending = capped.get("x")
    #expect(Outcome(pending) == .pending)
    for value in 0..<5 {
      #expect(capped.set(value, forKey: "y\(value)").result?.value != nil)
    }
    #expect(spy.setKeys == ["y0", "y1", "y2", "y3", "y4"])
    capped.clear()
    capped.onMemoryWarning()
    #expect(spy.clears == 1)
    #expect(spy.memoryWarnings == 1)
  }

  @Test("a limit below 1 fails every get with a clear error")
  func invalidLimit() {
    let spy = SpyLevel<String, Int>(["k": 1])
    let capped = spy.capRequests(0)
    #expect(capped.get("k").result?.error as? RequestCapperError == .invalidLimit(0))
    #expect(spy.gets.isEmpty)
  }
}
