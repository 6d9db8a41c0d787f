import Carlos
import Foundation

/// A script written the way Carlos 0.x and PiedPiper code was written. It uses
/// original spellings that are deprecated here, so it lives in a
/// `@available(*, deprecated)` method, reached through ``MigrationScript``:
/// the Playground itself builds without deprecation warnings.
protocol MigrationScript: Sendable {
  /// Runs the script, printing what it shows.
  func run() async throws
}

/// The original-style code of the `migrating` example.
struct OriginalStyleScript: MigrationScript {
  @available(*, deprecated, message: "uses Carlos 0.x and PiedPiper spellings on purpose")
  func run() async throws {
    // Promises: callbacks on the promise itself, and mimic, chain as before.
    let source = Promise<String>()
    let promise = Promise<String>()
      .onSuccess { value in print("promise succeeded with \(value)") }
      .onFailure { error in print("promise failed with \(error)") }
      .mimic(source.future)
    source.succeed("hello")
    print("the promise's future: \(await outcome(promise.future))")

    // recover without looking at the error; FutureResult.flatMap to a future.
    let rescued = Future<Int>(FetchError.valueNotInCache).recover { 42 }
    print("recover { 42 }: \(await outcome(rescued))")
    let chained = FutureResult.success(2).flatMap { Future($0 * 10) }
    print("FutureResult.flatMap to a future: \(await outcome(chained))")

    // Future(closure:) evaluates a closure returning an optional (now at once).
    let parsed = Future(closure: { Int("12") })
    let unparsed = Future(closure: { Int("twelve") })
    print("Future(closure:) with a value: \(await outcome(parsed))")
    print("Future(closure:) with nil: \(await outcome(unparsed))")

    // The original error names still compile and still match.
    do {
      _ = try await unparsed.value
    } catch FutureMappingError.cantMapValue {
      print("caught FutureMappingError.cantMapValue")
    }

    // >>> on functions returning optionals.
    let parse = { @Sendable (text: String) -> Int? in Int(text) }
    let half = { @Sendable (number: Int) -> Int? in number % 2 == 0 ? number / 2 : nil }
    print("(parse >>> half)(\"10\") = \(String(describing: (parse >>> half)("10")))")

    // Carlos 0.x initializers and names.
    let memory = MemoryCacheLevel<String, String>(capacity: 1_000)
    let fetcher = BasicFetcher<String, String> { key in Future("fetched \(key)") }
    let pooled = PoolCache(internalCache: memory >>> fetcher)
    let capped = RequestCapperCache(internalCache: pooled, requestCap: 2)
    print("capped, pooled get: \(await outcome(capped.get("a")))")
    let batch: BatchAllCache<[String], RequestCapperCache<PoolCache<BasicCache<String, String>>>> =
      capped.allBatch()
    print("a BatchAllCache get: \(await outcome(batch.get(["a", "b"])))")
    print("NSString cost: \(("carlos" as NSString).cost)")
    print("NSUserDefaultsCacheLevel is \(NSUserDefaultsCacheLevel<String, Int>.self)")
  }
}

extension Example {
  static let migrating: Example = Example(
    name: "migrating",
    summary: "code written for Carlos 0.x and PiedPiper, running on the compatibility spellings"
  ) {
    let script: any MigrationScript = OriginalStyleScript()
    try await script.run()
    try await runDeliberateDifferences()
  }
}
