import PiedPiper
import Testing

@Suite("Future: sequences of futures")
struct FutureSequenceTests {
  private func promises(_ count: Int) -> [Promise<Int>] {
    (0..<count).map { _ in Promise<Int>() }
  }

  // MARK: mergeAll

  @Test("mergeAll gives every value in order, whatever order they complete in")
  func mergeAllOrder() {
    let sources = promises(4)
    let merged = sources.map(\.future).mergeAll()
    for index in [2, 0, 3] {
      sources[index].succeed(index * 10)
      #expect(!merged.isCompleted)
    }
    sources[1].succeed(10)
    #expect(merged.result?.value == [0, 10, 20, 30])
  }

  @Test("mergeAll of no futures succeeds with no values")
  func mergeAllEmpty() {
    #expect([Future<Int>]().mergeAll().result?.value == [])
  }

  @Test("mergeAll fails as soon as one fails, and cancels the others")
  func mergeAllFailsFast() {
    let sources = promises(3)
    sources[0].succeed(1)
    let merged = sources.map(\.future).mergeAll()
    sources[1].fail(TestError(1))
    #expect(merged.result?.testError == TestError(1))
    #expect(sources[0].future.result?.value == 1)
    #expect(sources[2].future.result?.isCancelled == true)
  }

  @Test("mergeAll ends cancelled when one source is cancelled")
  func mergeAllCancelledSource() {
    let sources = promises(3)
    let merged = sources.map(\.future).mergeAll()
    sources[2].cancel()
    #expect(merged.result?.isCancelled == true)
  }

  @Test("mergeAll accepts any sequence, including one with the same future twice")
  func mergeAllRepeated() {
    let source = Promise<Int>()
    let merged = repeatElement(source.future, count: 3).mergeAll()
    source.succeed(4)
    #expect(merged.result?.value == [4, 4, 4])
  }

  // MARK: mergeSome

  @Test("mergeSome gives the successful values in order, once all completed")
  func mergeSomeValues() {
    let sources = promises(5)
    let merged = sources.map(\.future).mergeSome()
    sources[4].succeed(4)
    sources[1].fail(TestError(1))
    sources[3].fail(TestError(3))
    sources[2].succeed(2)
    #expect(!merged.isCompleted)
    sources[0].succeed(0)
    #expect(merged.result?.value == [0, 2, 4])
  }

  @Test("mergeSome never fails")
  func mergeSomeAllFail() {
    let merged = [Future<Int>(TestError(1)), Future(TestError(2))].mergeSome()
    #expect(merged.result?.value == [])
    #expect([Future<Int>]().mergeSome().result?.value == [])
  }

  @Test("A cancelled input cancels mergeSome, and with it the inputs still running")
  func mergeSomeCancelledInput() {
    let sources = promises(3)
    let merged = sources.map(\.future).mergeSome()
    sources[0].succeed(0)
    sources[1].cancel()
    #expect(merged.result?.isCancelled == true)
    #expect(sources[0].future.result?.value == 0)
    #expect(sources[2].future.result?.isCancelled == true)
  }

  @Test("A cancelled input cancels mergeSome also when it completes last")
  func mergeSomeCancelledLast() {
    let sources = promises(2)
    let merged = sources.map(\.future).mergeSome()
    sources[0].succeed(0)
    sources[1].cancel()
    #expect(merged.result?.isCancelled == true)
    #expect([Future<Int>(1), Future(result: .cancelled)].mergeSome().result?.isCancelled == true)
  }

  // MARK: all

  @Test("all succeeds once every future has succeeded")
  func allSucceeds() {
    let sources = promises(3)
    let all = sources.map(\.future).all()
    sources[0].succeed(0)
    sources[2].succeed(2)
    #expect(!all.isCompleted)
    sources[1].succeed(1)
    #expect(all.result?.value != nil)
    #expect([Future<Int>]().all().result?.value != nil)
  }

  @Test("all fails as soon as one fails")
  func allFailsFast() {
    let sources = promises(3)
    let all = sources.map(\.future).all()
    sources[1].fail(TestError(3))
    #expect(all.result?.testError == TestError(3))
    #expect(sources[0].future.result?.isCancelled == true)
  }

  // MARK: firstCompleted

  @Test("firstCompleted completes like the first future to complete", arguments: 0..<3)
  func firstCompleted(kind: Int) {
    let sources = promises(3)
    let first = sources.map(\.future).firstCompleted()
    #expect(!first.isCompleted)
    switch kind {
    case 0: sources[1].succeed(1)
    case 1: sources[1].fail(TestError(1))
    default: sources[1].cancel()
    }
    sources[0].succeed(0)
    #expect(first.result?.description == sources[1].future.result?.description)
  }

  @Test("firstCompleted of an already completed future completes at once")
  func firstCompletedAlreadyDone() {
    let first = [Promise<Int>().future, Future(2)].firstCompleted()
    #expect(first.result?.value == 2)
  }

  @Test("firstCompleted of no futures fails with emptySequence")
  func firstCompletedEmpty() {
    #expect([Future<Int>]().firstCompleted().result?.futureError == .emptySequence)
  }

  // MARK: reduce

  @Test("reduce folds the values in order")
  func reduceInOrder() {
    let sources = (0..<4).map { _ in Promise<String>() }
    let reduced = sources.map(\.future).reduce("") { (sum: String, next: String) -> String in
      sum + next
    }
    for (index, letter) in ["a", "b", "c", "d"].enumerated().reversed() {
      sources[index].succeed(letter)
    }
    #expect(reduced.result?.value == "abcd")
  }

  @Test("reduce of no futures gives the initial value")
  func reduceEmpty() {
    let reduced = [Future<Int>]().reduce(7) { (sum: Int, next: Int) -> Int in sum + next }
    #expect(reduced.result?.value == 7)
  }

  @Test("reduce fails as soon as one fails")
  func reduceFails() {
    let sources = promises(2)
    let reduced = sources.map(\.future).reduce(0) { (sum: Int, next: Int) -> Int in sum + next }
    sources[1].fail(TestError(2))
    #expect(reduced.result?.testError == TestError(2))
  }

  // MARK: traverse

  @Test("traverse starts every transform at once and gives the values in order")
  func traverseOrder() {
    let started = Recorder<Int>()
    let pending = Recorder<(Int, Promise<String>)>()
    let traversed = [3, 1, 2].traverse { (element: Int) -> Future<String> in
      started.record(element)
      let promise = Promise<String>()
      pending.record((element, promise))
      return promise.future
    }
    #expect(started.events == [3, 1, 2])
    #expect(!traversed.isCompleted)
    for (element, promise) in pending.events.reversed() {
      promise.succeed(String(repeating: "x", count: element))
    }
    #expect(traversed.result?.value == ["xxx", "x", "xx"])
  }

  @Test("traverse fails as soon as one transform fails")
  func traverseFails() {
    let traversed = [1, 2, 3].traverse { (element: Int) -> Future<Int> in
      element == 2 ? Future(TestError(element)) : Promise<Int>().future
    }
    #expect(traversed.result?.testError == TestError(2))
  }

  @Test("traverse of no elements succeeds with no values")
  func traverseEmpty() {
    #expect([Int]().traverse { Future($0) }.result?.value == [])
  }

  // MARK: Cancellation

  @Test("Cancelling a sequence combinator cancels every pending source", arguments: 0..<5)
  func cancellationReachesSources(kind: Int) {
    let sources = promises(3)
    sources[0].succeed(0)
    let futures = sources.map(\.future)
    let combined: Future<Int> =
      switch kind {
      case 0: futures.mergeAll().map { $0.count }
      case 1: futures.mergeSome().map { $0.count }
      case 2: futures.all().map { 0 }
      case 3: futures.reduce(0) { (sum: Int, next: Int) -> Int in sum + next }
      default: [0, 1, 2].traverse { sources[$0].future }.map { $0.count }
      }
    combined.cancel()
    #expect(combined.result?.isCancelled == true)
    #expect(sources[0].future.result?.value == 0)
    #expect(sources[1].future.result?.isCancelled == true)
    #expect(sources[2].future.result?.isCancelled == true)
  }

  @Test("Cancelling firstCompleted cancels every source")
  func firstCompletedCancellation() {
    let sources = promises(3)
    let first = sources.map(\.future).firstCompleted()
    first.cancel()
    #expect(sources.allSatisfy { $0.future.result?.isCancelled == true })
  }

  @Test("Sequence combinators of cancelled sources end cancelled", arguments: 0..<5)
  func cancelledSources(kind: Int) {
    let sources = promises(2)
    let futures = sources.map(\.future)
    let combined: Future<Int> =
      switch kind {
      case 0: futures.mergeAll().map { $0.count }
      case 1: futures.all().map { 0 }
      case 2: futures.firstCompleted()
      case 3: futures.reduce(0) { (sum: Int, next: Int) -> Int in sum + next }
      default: [0, 1].traverse { sources[$0].future }.map { $0.count }
      }
    sources[0].cancel()
    #expect(combined.result?.isCancelled == true)
  }
}
