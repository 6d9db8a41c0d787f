import Carlos
import Synchronization

/// A level kept in a dictionary: the custom level used by several examples.
final class DictionaryLevel<Key: Hashable & Sendable, Value: Sendable>: CacheLevel {
  private let name: String
  private let storage = Mutex<[Key: Value]>([:])

  init(_ name: String, _ contents: [Key: Value] = [:]) {
    self.name = name
    storage.withLock { $0 = contents }
  }

  func get(_ key: Key) -> Future<Value> {
    let value = storage.withLock { $0[key] }
    print("  \(name): get \(key) -> \(value.map { "\($0)" } ?? "miss")")
    return Future(value: value, error: FetchError.valueNotInCache)
  }

  func set(_ value: Value, forKey key: Key) -> Future<Void> {
    print("  \(name): set \(key) = \(value)")
    storage.withLock { $0[key] = value }
    return Future()
  }

  func remove(_ key: Key) -> Future<Void> {
    print("  \(name): remove \(key)")
    storage.withLock { $0[key] = nil }
    return Future()
  }

  func clear() {
    storage.withLock { $0 = [:] }
  }

  func onMemoryWarning() {
    print("  \(name): memory warning")
  }
}

extension Example {
  static let composition: Example = Example(
    name: "composition",
    summary: ">>> asks levels in order and fills the upper levels on a lower hit"
  ) {
    let fast = DictionaryLevel<String, String>("fast")
    let slow = DictionaryLevel<String, String>("slow", ["greeting": "hello"])
    let cache = fast >>> slow

    print("first get falls through to the slow level and fills the fast one:")
    print("  -> \(try await cache.get("greeting").value)")
    print("second get is answered by the fast level:")
    print("  -> \(try await cache.get("greeting").value)")
    print("set stores into both:")
    try await cache.set("bye", forKey: "farewell").value
    print("a key no level has fails: \(await outcome(cache.get("nothing")))")
  }

  static let closures: Example = Example(
    name: "closures",
    summary: "fetch closures stand in for levels on either side of >>>"
  ) {
    let memory = DictionaryLevel<String, Int>("memory")
    let cache = memory >>> { (key: String) in Future(key.count) }
    print("length of 'carlos': \(try await cache.get("carlos").value)")
    let custom = BasicCache<String, Int>(
      getClosure: { key in Future(value: Int(key), error: FetchError.invalidKey) },
      setClosure: { _, _ in Future() },
      clearClosure: {},
      memoryClosure: {}
    )
    print("a BasicCache made of closures: \(try await (custom >>> memory).get("12").value)")
    print("normalize() gives any level one concrete type: \(type(of: memory.normalize()))")
  }
}
