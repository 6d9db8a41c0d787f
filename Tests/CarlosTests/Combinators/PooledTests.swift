import Carlos
import Synchronization
import Testing

@Suite("Pooling requests")
struct PooledTests {
  @Test("1,000 concurrent gets of one key start exactly one inner request, in each of 100 rounds")
  func oneInnerRequestPerRound() async {
    let probe = ProbeLevel<String>(.held)
    let pool = probe.pooled()
    for round in 0..<100 {
      let futures = await withTaskGroup(of: Future<String>.self) { group -> [Future<String>] in
        for _ in 0..<1_000 {
          group.addTask { pool.get("k") }
        }
        var futures: [Future<String>] = []
        for await future in group { futures.append(future) }
        return futures
      }
      #expect(probe.getCount == round + 1)
      let completedEarly = futures.filter(\.isCompleted).count
      #expect(completedEarly == 0)
      probe.completeAll()
      let expected = "k#\(round)"
      #expect(futures.count == 1_000)
      let wrong = futures.filter { $0.result?.value != expected }.count
      #expect(wrong == 0)
    }
  }

  @Test("gets racing with completions never run two inner requests for one key at once")
  func noRaceWindow() async {
    let probe = ProbeLevel<String>(.background)
    let pool = probe.pooled()
    let futures = await issueConcurrently(threads: 8, perThread: 500) { thread, index in
      pool.get(index % 2 == 0 ? "a" : "b")
    }
    let allCompleted = await waitUntilCompleted(futures)
    #expect(allCompleted)
    #expect(probe.maxInFlightForOneKey == 1)
    #expect(probe.getCount < 4_000)
    let wrong = futures.filter { future in
      let value = future.result?.value ?? ""
      return !value.hasPrefix("a#") && !value.hasPrefix("b#")
    }.count
    #expect(wrong == 0)
  }

  @Test(
    "under a composition (memory >>> pool), 100 concurrent misses of one key start one inner request"
  )
  func throughComposition() {
    let probe = ProbeLevel<String>(.held)
    let cache = MemoryCacheLevel<String, String>(capacity: 100) >>> probe.pooled()
    let futures = (0..<100).map { _ in cache.get("k") }
    #expect(probe.getCount == 1)
    probe.completeAll()
    #expect(futures.allSatisfy { $0.result?.value == "k#0" })
  }

  @Test("concurrent getWithSource calls of one key share one inner request, apart from gets")
  func withSourceIsShared() {
    let probe = ProbeLevel<String>(.held)
    let pool = probe.pooled()
    let answers = (0..<10).map { _ in pool.getWithSource("k") }
    let values = (0..<10).map { _ in pool.get("k") }
    #expect(probe.getCount == 2, "one inner request per kind")
    probe.completeAll()
    #expect(answers.allSatisfy { $0.result?.value?.value.hasPrefix("k#") == true })
    #expect(values.allSatisfy { $0.result?.value?.hasPrefix("k#") == true })
    _ = pool.getWithSource("k")
    #expect(probe.getCount == 3, "a request completed is not shared any more")
  }

  @Test("different keys run their own inner requests independently")
  func keysAreIndependent() {
    let probe = ProbeLevel<String>(.held)
    let pool = probe.pooled()
    let a1 = pool.get("a")
    let b = pool.get("b")
    let a2 = pool.get("a")
    #expect(probe.gets == ["a", "b"])
    guard let requestB = probe.open.first(where: { $0.key == "b" }) else {
      Issue.record("no inner request for b")
      return
    }
    probe.complete(requestB.number)
    #expect(Outcome(b) == .success("b#1"))
    #expect(Outcome(a1) == .pending)
    #expect(Outcome(a2) == .pending)
    probe.completeAll()
    #expect(Outcome(a1) == .success("a#0"))
    #expect(Outcome(a2) == .success("a#0"))
  }

  @Test("only requests in flight are shared: after completion the next get starts a new one")
  func newRequestAfterCompletion() {
    let probe = ProbeLevel<String>(.held)
    let pool = probe.pooled()
    let first = pool.get("k")
    probe.completeAll()
    let second = pool.get("k")
    #expect(probe.getCount == 2)
    probe.completeAll()
    #expect(Outcome(first) == .success("k#0"))
    #expect(Outcome(second) == .success("k#1"))
  }

  @Test("a level that answers at once is asked every time")
  func completedRequestsAreNotKept() {
    let probe = ProbeLevel<String>(.immediate)
    let pool = probe.pooled()
    #expect(Outcome(pool.get("k")) == .success("k#0"))
    #expect(Outcome(pool.get("k")) == .success("k#1"))
    #expect(probe.getCount == 2)
  }

  @Test("cancelling one caller completes only that caller as cancelled")
  func cancelOneCaller() {
    let probe = ProbeLevel<String>(.held)
    let pool = probe.pooled()
    let callers = (0..<3).map { _ in pool.get("k") }
    callers[1].cancel()
    #expect(Outcome(callers[1]) == .cancelled)
    #expect(Outcome(callers[0]) == .pending)
    #expect(probe.cancelled.isEmpty)
    probe.completeAll()
    #expect(Outcome(callers[0]) == .success("k#0"))
    #expect(Outcome(callers[1]) == .cancelled)
    #expect(Outcome(callers[2]) == .success("k#0"))
  }

  @Test("the inner request is cancelled only when every caller has cancelled")
  func cancelAllCallers() {
    let probe = ProbeLevel<String>(.held)
    let pool = probe.pooled()
    let callers = (0..<3).map { _ in pool.get("k") }
    callers[0].cancel()
    callers[2].cancel()
    #expect(probe.cancelled.isEmpty)
    callers[1].cancel()
    #expect(probe.cancelled == [0])
    #expect(callers.allSatisfy { Outcome($0) == .cancelled })
    let next = pool.get("k")
    #expect(probe.getCount == 2)
    probe.completeAll()
    #expect(Outcome(next) == .success("k#1"))
  }

  @Test("callers that join after others cancelled still share the request")
  func joinAfterCancellation() {
    let probe = ProbeLevel<String>(.held)
    let pool = probe.pooled()
    let first = pool.get("k")
    let second = pool.get("k")
    first.cancel()
    let third = pool.get("k")
    second.cancel()
    #expect(probe.cancelled.isEmpty)
    #expect(probe.getCount == 1)
    probe.completeAll()
    #expect(Outcome(third) == .success("k#0"))
  }

  @Test("a failure reaches every caller")
  func failureReachesEveryone() {
    let probe = ProbeLevel<String>(.held)
    let pool = probe.pooled()
    let callers = (0..<3).map { _ in pool.get("k") }
    probe.complete(0, with: .error(TestError(3)))
    for caller in callers {
      #expect(caller.result?.error as? TestError == TestError(3))
    }
  }

  @Test("sets, clear and memory warnings pass through")
  func passThrough() {
    let spy = SpyLevel<String, Int>()
    let pool = spy.pooled()
    #expect(pool.set(1, forKey: "a").result?.value != nil)
    #expect(pool.set(2, forKey: "a").result?.value != nil)
    #expect(spy.setKeys == ["a", "a"])
    #expect(Outcome(pool.get("a")) == .success(2))
    pool.clear()
    pool.onMemoryWarning()
    #expect(spy.clears == 1)
    #expect(spy.memoryWarnings == 1)
  }
}
