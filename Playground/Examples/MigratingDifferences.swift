import CarlosCompatibility
import Foundation

/// A level written for Carlos 0.x: no remove, no expiry.
private final class OriginalStyleLevel: CacheLevel, @unchecked Sendable {
  // Unchecked: `values` is only touched under `lock`.
  typealias KeyType = String
  typealias OutputType = Data
  private let lock = NSLock()
  private var values: [String: Data] = [:]

  func get(_ key: String) -> Future<Data> {
    let value = lock.withLock { values[key] }
    return Future(value: value, error: FetchError.valueNotInCache)
  }

  func set(_ value: Data, forKey key: String) -> Future<Void> {
    lock.withLock { values[key] = value }
    return Future()
  }

  func clear() { lock.withLock { values = [:] } }
  func onMemoryWarning() { clear() }
}

/// A profile stored as JSON.
private struct Profile: Codable, Sendable {
  var name: String
}

/// The deliberate differences from Carlos 0.x, each with the one-line change a user makes.
func runDeliberateDifferences() async throws {
  // With CarlosCompatibility: PiedPiper's Result<T>, the 0.x Logger, plain-closure >>>.
  let outcome: Result<Int> = .success(1)
  print("Result<T> is FutureResult: \(outcome)")
  let increment = { (x: Int) in x + 1 }
  let twice = { (x: Int) in x * 2 }
  print("plain closures: (increment >>> twice)(1) = \((increment >>> twice)(1))")

  // A level written for 0.x compiles; remove says honestly it cannot.
  let original = OriginalStyleLevel()
  let cache = MemoryCacheLevel<String, Data>() >>> original
  try await cache.set(Data("v".utf8), forKey: "k")
  do {
    try await original.remove("k")
  } catch {
    print("a 0.x level's remove: \(error)")
  }

  // NSData → Data: `nsData as Data`.
  let nsData = NSData(data: Data("bytes".utf8))
  try await cache.set(nsData as Data, forKey: "bytes")
  print("NSData stored as Data: \(try await cache.get("bytes").count) bytes")

  // NSCoding → Codable, JSONTransformer<T>: `=>> JSONTransformer<Profile>()`.
  let profiles = MemoryCacheLevel<String, Data>() =>> JSONTransformer<Profile>()
  try await profiles.set(Profile(name: "Ada"), forKey: "ada")
  print("a Codable value through JSONTransformer: \(try await profiles.get("ada").name)")

  // Operation types → futures or async/await: `try await level.get(key)`.
  print("an awaited get instead of an Operation: \(try await cache.get("k").count) byte(s)")

  // batchGetSome leaves failed and cancelled gets out, as 0.10 did.
  print(
    "batchGetSome([k, missing]): \(try await cache.batchGetSome(["k", "missing"]).value.count) value(s)"
  )
}
