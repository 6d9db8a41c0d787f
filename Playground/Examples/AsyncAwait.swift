import Carlos

extension Example {
  static let asyncAwait: Example = Example(
    name: "async-await",
    summary: "futures bridge to async/await both ways, with cancellation flowing both ways"
  ) {
    let cache = BasicFetcher<String, Int> { key in
      Future {
        try await Task.sleep(nanoseconds: 1_000_000)
        return key.count
      }
    }
    print("awaited value: \(try await cache.get("hello").value)")

    let endless = Future<Int> {
      try await Task.sleep(nanoseconds: 60_000_000_000)
      return 0
    }
    endless.cancel()
    print("cancelling the future cancels its task: \(await outcome(endless))")

    let pending = Promise<Int>()
    let waiter = Task { try await pending.future.value }
    waiter.cancel()
    _ = await waiter.result
    print("cancelling the awaiting task cancels the future: \(pending.future.result!)")
  }
}
