import Benchmark
import NIOCore
import NIOEmbedded
import NIOPosix
import PiedPiper

/// One event loop thread for the NIO baselines that run on a real loop.
let nioGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)

/// Runs `body` on `loop` and waits for it: NIO's promises are cheapest on their own loop.
func onLoop(_ loop: any EventLoop, _ body: @escaping @Sendable () -> Void) {
  do {
    try loop.submit(body).wait()
  } catch {
    fatalError("the benchmark's event loop failed: \(error)")
  }
}

/// PiedPiper's futures next to SwiftNIO's `EventLoopFuture` and Swift's continuations.
func futureBenchmarks() {
  // MARK: a promise, one success callback, completion

  Benchmark("future.promise · PiedPiper Promise+onSuccess+succeed") { benchmark in
    for i in benchmark.scaledIterations {
      let promise = Promise<Int>()
      blackHole(promise)  // escapes, as a promise handed to a caller does (no stack promotion)
      promise.future.onSuccess { blackHole($0) }
      promise.succeed(i)
    }
  }

  Benchmark("future.promise · NIO embedded makePromise+whenSuccess+succeed") { benchmark in
    let loop = EmbeddedEventLoop()
    for i in benchmark.scaledIterations {
      let promise = loop.makePromise(of: Int.self)
      promise.futureResult.whenSuccess { blackHole($0) }
      promise.succeed(i)
    }
    try loop.syncShutdownGracefully()
  }

  Benchmark("future.promise · NIO posix makePromise+whenSuccess+succeed") { benchmark in
    let loop = nioGroup.next()
    let range = benchmark.scaledIterations
    onLoop(loop) {
      for i in range {
        let promise = loop.makePromise(of: Int.self)
        promise.futureResult.whenSuccess { blackHole($0) }
        promise.succeed(i)
      }
    }
  }

  // MARK: a completed future, five maps, one success callback

  Benchmark("future.map5 · PiedPiper Future(v)+5×map+onSuccess") { benchmark in
    for i in benchmark.scaledIterations {
      Future(i)
        .map { $0 &+ 1 }
        .map { $0 &+ 1 }
        .map { $0 &+ 1 }
        .map { $0 &+ 1 }
        .map { $0 &+ 1 }
        .onSuccess { blackHole($0) }
    }
  }

  Benchmark("future.map5 · NIO embedded makeSucceededFuture+5×map+whenSuccess") { benchmark in
    let loop = EmbeddedEventLoop()
    for i in benchmark.scaledIterations {
      loop.makeSucceededFuture(i)
        .map { $0 &+ 1 }
        .map { $0 &+ 1 }
        .map { $0 &+ 1 }
        .map { $0 &+ 1 }
        .map { $0 &+ 1 }
        .whenSuccess { blackHole($0) }
    }
    try loop.syncShutdownGracefully()
  }

  Benchmark("future.map5 · NIO posix makeSucceededFuture+5×map+whenSuccess") { benchmark in
    let loop = nioGroup.next()
    let range = benchmark.scaledIterations
    onLoop(loop) {
      for i in range {
        loop.makeSucceededFuture(i)
          .map { $0 &+ 1 }
          .map { $0 &+ 1 }
          .map { $0 &+ 1 }
          .map { $0 &+ 1 }
          .map { $0 &+ 1 }
          .whenSuccess { blackHole($0) }
      }
    }
  }

  // MARK: awaiting a completed future

  Benchmark("future.await · PiedPiper await completed.value") { benchmark in
    let future = Future(42)
    for _ in benchmark.scaledIterations {
      blackHole(try await future.value)
    }
  }

  Benchmark("future.await · Swift withCheckedContinuation resumed at once") { benchmark in
    for i in benchmark.scaledIterations {
      let value = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
        continuation.resume(returning: i)
      }
      blackHole(value)
    }
  }

  Benchmark("future.await · NIO posix await completed.get()") { benchmark in
    let future = nioGroup.next().makeSucceededFuture(42)
    for _ in benchmark.scaledIterations {
      blackHole(try await future.get())
    }
  }
}
