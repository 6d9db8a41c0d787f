import Carlos
import Foundation
import Synchronization

extension Example {
  static let futureCombinators: Example = Example(
    name: "future-combinators",
    summary: "zip, filter, sequences of futures, retry, snooze, timeout and >>> on functions"
  ) {
    let pair = try await Future(1).zip(Future("one")).value
    print("zip: \(pair)")

    let even = Future(3).filter { $0 % 2 == 0 }
    print("filter on 3 for even numbers: \(even.result!)")

    let futures = [Future(1), Future(2), Future<Int>(FetchError.valueNotInCache), Future(4)]
    print("mergeSome keeps the successes: \(try await futures.mergeSome().value)")
    print("mergeAll fails fast: \(await outcome(futures.mergeAll()))")
    print("reduce: \(try await [Future(1), Future(2), Future(3)].reduce(0, combine: +).value)")
    print("traverse: \(try await [1, 2, 3].traverse { Future($0 * 10) }.value)")

    let attempts = AttemptCounter()
    let retried = retry(3, every: 0.01) {
      attempts.next() < 3 ? Future<String>(FetchError.valueNotInCache) : Future("third time lucky")
    }
    print("retry: \(try await retried.value) after \(attempts.count) attempts")

    let slow = Future(0).snooze(0.2)
    print("timeout: \(await outcome(slow.timeout(after: 0.01)))")

    let addOne: @Sendable (Int) -> Int = { $0 + 1 }
    let describe: @Sendable (Int) -> String = { "value \($0)" }
    print("function composition: \((addOne >>> describe)(41))")
  }
}

/// Counts attempts from any thread.
final class AttemptCounter: Sendable {
  private let counter = Mutex(0)
  var count: Int { counter.withLock { $0 } }
  func next() -> Int {
    counter.withLock {
      $0 += 1
      return $0
    }
  }
}
