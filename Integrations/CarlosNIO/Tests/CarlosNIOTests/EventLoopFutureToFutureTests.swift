#if NIO
import Carlos
import CarlosNIO
import NIOCore
import NIOPosix
import Synchronization
import Testing

private struct Boom: Error, Equatable {}

@Suite("EventLoopFuture → Future")
struct EventLoopFutureToFutureTests {
  let group = MultiThreadedEventLoopGroup.singleton

  @Test("a value reaches the Carlos future")
  func valueArrives() async throws {
    let promise = group.next().makePromise(of: String.self)
    let converted = promise.futureResult.carlosFuture()
    promise.succeed("hello")
    #expect(try await converted.value == "hello")
  }

  @Test("an error reaches the Carlos future unchanged")
  func errorArrives() async throws {
    let promise = group.next().makePromise(of: String.self)
    let converted = promise.futureResult.carlosFuture()
    promise.fail(Boom())
    await #expect(throws: Boom.self) { try await converted.value }
  }

  @Test("the Carlos future's callbacks run on the EventLoopFuture's event loop")
  func callbacksOnTheLoop() async throws {
    let loop = group.next()
    let promise = loop.makePromise(of: Int.self)
    let converted = promise.futureResult.carlosFuture()
    let onLoop = Promise<Bool>()
    converted.onSuccess { _ in onLoop.succeed(loop.inEventLoop) }
    promise.succeed(7)
    #expect(try await onLoop.future.value)
  }

  @Test(
    "cancelling the Carlos future cancels it at once; the NIO work goes on and its result is ignored"
  )
  func cancellationIsLocal() async throws {
    let loop = group.next()
    let promise = loop.makePromise(of: Int.self)
    let converted = promise.futureResult.carlosFuture()
    let cancelled = Mutex(false)
    converted.onCancel { cancelled.withLock { $0 = true } }
    converted.cancel()
    #expect(cancelled.withLock { $0 })
    promise.succeed(1)
    #expect(try await promise.futureResult.get() == 1)
    #expect(converted.result?.isCancelled == true)
  }

  @Test("an EventLoopFuture already succeeded gives a future with its value")
  func alreadySucceeded() async throws {
    let converted = group.next().makeSucceededFuture(5).carlosFuture()
    #expect(try await converted.value == 5)
  }

  @Test("a round trip Future → EventLoopFuture → Future keeps the value")
  func roundTrip() async throws {
    let original = Promise<[Int]>()
    let back = original.future.eventLoopFuture(on: group.next()).carlosFuture()
    original.succeed([1, 2, 3])
    #expect(try await back.value == [1, 2, 3])
  }

  @Test("an EventLoopFuture can stand as a fetcher below a memory level")
  func fetcherBelowMemory() async throws {
    let loop = group.next()
    let loads = Mutex(0)
    let memory = MemoryCacheLevel<String, String>(capacity: 100)
    let cache =
      memory >>> { (key: String) -> Future<String> in
        loads.withLock { $0 += 1 }
        return loop.submit { key.uppercased() }.carlosFuture()
      }
    #expect(try await cache.get("abc") == "ABC")
    #expect(try await cache.get("abc") == "ABC")
    #expect(loads.withLock { $0 } == 1)
  }
}
#endif
