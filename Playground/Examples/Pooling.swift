import Carlos
import Synchronization

/// Counts the requests a pretend network level receives.
private final class RequestCount: Sendable {
  private let count = Mutex(0)
  func increment() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}

extension Example {
  static let pooling: Example = Example(
    name: "pooling",
    summary: "pooled() shares one expensive request among concurrent gets of the same key"
  ) {
    let requests = RequestCount()
    let network = BasicFetcher<String, String> { key in
      requests.increment()
      print("  network: fetching \(key)")
      return Future {
        try await Task.sleep(nanoseconds: 50_000_000)
        return "contents of \(key)"
      }
    }
    let cache = network.pooled()

    let gets = (0..<5).map { _ in cache.get("/logo.png") }
    print("5 gets of the same key in flight; the network was asked \(requests.value) time(s)")
    for get in gets { _ = try await get.value }
    print("all 5 got \"\(try await gets[0].value)\"")

    let mine: Future<String> = cache.get("/avatar.png")
    let yours: Future<String> = cache.get("/avatar.png")
    mine.cancel()
    print("I cancelled my get: \(await outcome(mine))")
    print("yours still arrives: \(await outcome(yours))")

    _ = try await cache.get("/logo.png").value
    print(
      "once a request has completed, the next get asks again: \(requests.value) requests in all")
  }
}
