import Carlos

/// A dictionary-backed level that records what it is asked, for tests.
final class SpyLevel<Key: Hashable & Sendable, Value: Sendable>: CacheLevel {
  struct Record {
    var storage: [Key: Value] = [:]
    var gets: [Key] = []
    var sets: [(Key, Value)] = []
    var expiries: [Expiry] = []
    var removes: [Key] = []
    var removeExpiredCount = 0
    var clears = 0
    var memoryWarnings = 0
    var pending: [Promise<Value>] = []
  }

  /// When true, gets return a pending future the test completes through `pending`.
  let holdsGets: Bool
  /// When set, every set fails with this error.
  let setError: (any Error)?
  private let record: Lock<Record>

  init(_ storage: [Key: Value] = [:], holdsGets: Bool = false, setError: (any Error)? = nil) {
    self.holdsGets = holdsGets
    self.setError = setError
    record = Lock(Record(storage: storage))
  }

  var storage: [Key: Value] { record.withLock { $0.storage } }
  var gets: [Key] { record.withLock { $0.gets } }
  var setKeys: [Key] { record.withLock { $0.sets.map(\.0) } }
  var expiries: [Expiry] { record.withLock { $0.expiries } }
  var removes: [Key] { record.withLock { $0.removes } }
  var removeExpiredCount: Int { record.withLock { $0.removeExpiredCount } }
  var clears: Int { record.withLock { $0.clears } }
  var memoryWarnings: Int { record.withLock { $0.memoryWarnings } }
  var pending: [Promise<Value>] { record.withLock { $0.pending } }

  func get(_ key: Key) -> Future<Value> {
    record.withLock { record -> Future<Value> in
      record.gets.append(key)
      if holdsGets {
        let promise = Promise<Value>()
        record.pending.append(promise)
        return promise.future
      }
      return Future(value: record.storage[key], error: FetchError.valueNotInCache)
    }
  }

  @discardableResult
  func set(_ value: Value, forKey key: Key) -> Future<Void> {
    if let setError { return Future(setError) }
    record.withLock {
      $0.sets.append((key, value))
      $0.storage[key] = value
    }
    return Future()
  }

  /// Stores like `set`, and records the expiry (the spy never expires anything).
  @discardableResult
  func set(_ value: Value, forKey key: Key, expiry: Expiry) -> Future<Void> {
    record.withLock { $0.expiries.append(expiry) }
    return set(value, forKey: key)
  }

  @discardableResult
  func remove(_ key: Key) -> Future<Void> {
    record.withLock {
      $0.removes.append(key)
      $0.storage[key] = nil
    }
    return Future()
  }

  @discardableResult
  func removeExpired() -> Future<Void> {
    record.withLock { $0.removeExpiredCount += 1 }
    return Future()
  }

  func clear() {
    record.withLock {
      $0.clears += 1
      $0.storage = [:]
    }
  }

  func onMemoryWarning() {
    record.withLock { $0.memoryWarnings += 1 }
  }
}

/// An error with an identity, to check that the right error comes through.
struct TestError: Error, Equatable {
  let id: Int
  init(_ id: Int = 0) { self.id = id }
}

/// A small deterministic generator (SplitMix64), so generated cases are repeatable.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The outcome of a future as a comparable value.
enum Outcome<Value: Equatable & Sendable>: Equatable {
  case success(Value)
  case failure(String)
  case cancelled
  case pending

  init(_ future: Future<Value>) {
    switch future.result {
    case .success(let value)?: self = .success(value)
    case .error(let error)?: self = .failure(String(describing: error))
    case .cancelled?: self = .cancelled
    case nil: self = .pending
    }
  }
}
