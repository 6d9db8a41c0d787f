#if NIO
import Carlos
import CarlosNIO
import Foundation
import NIOCore
import NIOPosix
import Testing

private struct Boom: Error, Equatable {}

@Suite("Future → EventLoopFuture")
struct FutureToEventLoopFutureTests {
  let group = MultiThreadedEventLoopGroup.singleton

  @Test("a value reaches the EventLoopFuture")
  func valueArrives() async throws {
    let promise = Promise<Int>()
    let converted = promise.future.eventLoopFuture(on: group.next())
    promise.succeed(42)
    #expect(try await converted.get() == 42)
  }

  @Test("a future already succeeded gives a succeeded EventLoopFuture")
  func alreadySucceeded() async throws {
    let converted = Future("done").eventLoopFuture(on: group.next())
    #expect(try await converted.get() == "done")
  }

  @Test("an error reaches the EventLoopFuture unchanged")
  func errorArrives() async throws {
    let promise = Promise<Int>()
    let converted = promise.future.eventLoopFuture(on: group.next())
    promise.fail(Boom())
    await #expect(throws: Boom.self) { try await converted.get() }
  }

  @Test("cancelling the Carlos future fails the EventLoopFuture with CancellationError")
  func cancellationFails() async throws {
    let promise = Promise<Int>()
    let converted = promise.future.eventLoopFuture(on: group.next())
    promise.future.cancel()
    await #expect(throws: CancellationError.self) { try await converted.get() }
  }

  @Test("callbacks of the EventLoopFuture run on the given event loop")
  func callbacksOnTheLoop() async throws {
    let loop = group.next()
    let promise = Promise<Int>()
    let converted = promise.future.eventLoopFuture(on: loop)
    let ranOnLoop = converted.map { _ in loop.inEventLoop }
    Thread.detachNewThread { promise.succeed(1) }
    #expect(try await ranOnLoop.get())
  }

  @Test("a cache get can be answered as an EventLoopFuture")
  func cacheGet() async throws {
    let cache = MemoryCacheLevel<String, String>(capacity: 100)
    try await cache.set("hello", forKey: "greeting")
    let loop = group.next()
    let answer: Future<String> = cache.get("greeting")
    #expect(try await answer.eventLoopFuture(on: loop).get() == "hello")
  }

  @Test("1,000 conversions completed from many threads each deliver their own value")
  func manyConcurrentConversions() async throws {
    let promises = (0..<1_000).map { _ in Promise<Int>() }
    let converted = promises.map { $0.future.eventLoopFuture(on: group.next()) }
    await withTaskGroup(of: Void.self) { tasks in
      for (index, promise) in promises.enumerated() {
        tasks.addTask { promise.succeed(index) }
      }
    }
    for (index, future) in converted.enumerated() {
      #expect(try await future.get() == index)
    }
  }
}
#endif
