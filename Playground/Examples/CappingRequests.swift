import Carlos
import Synchronization

/// A pretend slow level that remembers how many of its requests ran at once.
private final class SlowLevel: Fetcher {
  typealias KeyType = Int
  typealias OutputType = String

  private let state = Mutex((running: 0, most: 0, started: [Int]()))

  var mostAtOnce: Int { state.withLock { $0.most } }
  var startOrder: [Int] { state.withLock { $0.started } }

  func get(_ key: Int) -> Future<String> {
    state.withLock { state in
      state.running += 1
      state.most = max(state.most, state.running)
      state.started.append(key)
    }
    return Future {
      try await Task.sleep(nanoseconds: 20_000_000)
      self.state.withLock { $0.running -= 1 }
      return "image \(key)"
    }
  }
}

extension Example {
  static let cappingRequests: Example = Example(
    name: "capping-requests",
    summary: "capRequests(n) runs at most n gets at once; the rest wait their turn"
  ) {
    let slow = SlowLevel()
    let cache = slow.capRequests(2)

    let gets = (1...6).map { cache.get($0) }
    let third = gets[2]
    third.cancel()
    print("6 gets issued to a level capped at 2; the third was cancelled while it waited")
    for get in gets where get !== third { _ = try await get.value }
    print("at most \(slow.mostAtOnce) ran at once")
    print("they started in the order they were made: \(slow.startOrder)")
    print("the cancelled one never started: \(await outcome(third))")
  }
}
