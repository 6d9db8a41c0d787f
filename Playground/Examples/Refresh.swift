import Carlos
import Foundation
import Synchronization

extension Example {
  static let refresh: Example = Example(
    name: "refresh",
    summary: "refreshing(from:after:): serve an old value at once, reload it in the background"
  ) {
    let clock = ManualClock()
    let memory = MemoryCacheLevel<String, String>(
      capacity: 1_000, expiration: .afterWrite(.seconds(600)), clock: clock)
    let version = Mutex(1)
    let origin = BasicFetcher<String, String> { key in
      let current = version.withLock { $0 }
      print("  origin: loading \(key), version \(current)")
      return Future("\(key) v\(current)")
    }
    let cache = memory.refreshing(from: origin, after: .seconds(60), clock: clock)

    print("first get: \(await outcome(cache.get("price")))")
    version.withLock { $0 = 2 }
    clock.advance(by: .seconds(30))
    print("30 s later (young, no reload): \(await outcome(cache.get("price")))")
    clock.advance(by: .seconds(40))
    print("70 s later (old: served at once, reloaded behind): \(await outcome(cache.get("price")))")
    print("next get sees the reloaded value: \(await outcome(cache.get("price")))")

    // A failed reload keeps the old value (and logs a warning).
    let broken = memory.refreshing(
      from: BasicFetcher<String, String> { _ in Future(FetchError.valueNotInCache) },
      after: .seconds(1), clock: clock)
    clock.advance(by: .seconds(5))
    let standardOutput = CarlosLogger.output  // the warning, shown in this example's output
    CarlosLogger.output = { message, level in print("  the level logged: \(level): \(message)") }
    print(
      "with the origin down, the old value is still served: \(await outcome(broken.get("price")))")
    CarlosLogger.output = standardOutput
  }
}
