import Carlos

extension Example {
  static let futures: Example = Example(
    name: "futures",
    summary: "Promise and Future: callbacks, map, flatMap, recover and async/await"
  ) {
    let promise = Promise<Int>()
    promise.future
      .onSuccess { print("succeeded with \($0)") }
      .onFailure { print("failed with \($0)") }
      .onCancel { print("cancelled") }
    promise.succeed(42)
    promise.fail(FetchError.valueNotInCache)  // ignored: the first completion wins

    let doubled = Future(21).map { $0 * 2 }
    print("21 doubled is \(try await doubled.value)")

    let recovered = Future<Int>(FetchError.valueNotInCache).recover(0)
    print("a failure recovered to \(try await recovered.value)")

    let fromAsync = Future { () async throws -> String in
      try await Task.sleep(nanoseconds: 1_000_000)
      return "made by an async operation"
    }
    print(try await fromAsync.value)
  }
}
