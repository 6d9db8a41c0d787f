import Carlos
import Synchronization

/// A custom level: conform to `CacheLevel` and complete a promise.
final class SquaresLevel: CacheLevel {
  typealias KeyType = Int
  typealias OutputType = Int

  func get(_ key: Int) -> Future<Int> {
    let promise = Promise<Int>()
    if key >= 0 {
      promise.succeed(key * key)
    } else {
      promise.fail(FetchError.invalidKey)
    }
    return promise.future
  }

  func set(_ value: Int, forKey key: Int) -> Future<Void> { Future() }
  func remove(_ key: Int) -> Future<Void> { Future() }
  func clear() {}
  func onMemoryWarning() {}
}

extension Example {
  static let customLevel: Example = Example(
    name: "custom-level",
    summary: "write your own level with a Promise, and listen to requests"
  ) {
    let request = SquaresLevel().get(12)
    request
      .onSuccess { print("I found \($0)!") }
      .onFailure { print("An error occurred: \($0)") }
      .onCompletion { result in print("Nevertheless the request completed: \(result)") }
    request.onSuccess { print("I can read \($0), too!") }
    print("a bad key: \(SquaresLevel().get(-1).result!)")
  }
}
