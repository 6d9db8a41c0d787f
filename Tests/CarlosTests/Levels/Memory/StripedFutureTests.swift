import Testing

@testable import Carlos

@Suite("StripedFuture")
struct StripedFutureTests {
  @Test(
    "every thread number gets a completed copy; copies are distinct objects, shared modulo their count"
  )
  func copies() {
    let striped = StripedFuture { Future(7) }
    let count = striped.copies.count
    #expect(count >= 4 && count <= 64 && count & (count - 1) == 0)
    #expect(Set(striped.copies.map(ObjectIdentifier.init)).count == count)
    for thread in 0..<(2 * count) {
      #expect(striped.future(for: thread).result?.value == 7)
      #expect(striped.future(for: thread) === striped.future(for: thread + count))
    }
  }

  @Test("a level answers sets and misses with completed futures from any thread")
  func levelAnswers() async {
    let level = MemoryCacheLevel<Int, Int>(capacity: 10)
    let failures = Lock(0)
    await onThreads(4) { thread in
      var wrong = 0
      for step in 0..<100 {
        if level.set(step, forKey: thread).result?.value == nil { wrong += 1 }
        if level.get(100 + thread).result?.error as? FetchError != .valueNotInCache { wrong += 1 }
      }
      failures.withLock { $0 += wrong }
    }
    #expect(failures.withLock { $0 } == 0)
  }
}
