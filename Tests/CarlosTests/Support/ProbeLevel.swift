import Carlos
import Dispatch
import Foundation
import Synchronization

/// A level for request-shaping tests: it counts its gets, how many run at once
/// (overall and per key), and which were cancelled. Each get's value is
/// "<key>#<number of the get>", so a caller can tell which request answered it.
final class ProbeLevel<Key: Hashable & Sendable>: CacheLevel {
  typealias KeyType = Key
  typealias OutputType = String

  /// When gets complete.
  enum Mode {
    /// Never by themselves: the test completes them with `complete(_:with:)`.
    case held
    /// Before `get` returns.
    case immediate
    /// Soon, on a global queue.
    case background
  }

  struct Request: Sendable {
    let number: Int
    let key: Key
    let promise: Promise<String>
    var value: String { "\(key)#\(number)" }
  }

  private struct Record {
    var gets: [Key] = []
    var open: [Int: Request] = [:]
    var inFlight = 0
    var maxInFlight = 0
    var inFlightByKey: [Key: Int] = [:]
    var maxInFlightForOneKey = 0
    var cancelled: [Int] = []
    var sets: [Key] = []
    var removes: [Key] = []
    var clears = 0
    var memoryWarnings = 0
  }

  let mode: Mode
  private let record = Lock(Record())

  init(_ mode: Mode) {
    self.mode = mode
  }

  var gets: [Key] { record.withLock { $0.gets } }
  var getCount: Int { record.withLock { $0.gets.count } }
  var maxInFlight: Int { record.withLock { $0.maxInFlight } }
  var inFlight: Int { record.withLock { $0.inFlight } }
  var maxInFlightForOneKey: Int { record.withLock { $0.maxInFlightForOneKey } }
  /// The numbers of the gets whose futures were cancelled by their caller.
  var cancelled: [Int] { record.withLock { $0.cancelled } }
  /// The gets not yet completed, oldest first.
  var open: [Request] { record.withLock { $0.open.values.sorted { $0.number < $1.number } } }
  var sets: [Key] { record.withLock { $0.sets } }
  var removes: [Key] { record.withLock { $0.removes } }
  var clears: Int { record.withLock { $0.clears } }
  var memoryWarnings: Int { record.withLock { $0.memoryWarnings } }

  func get(_ key: Key) -> Future<String> {
    let request: Request = record.withLock { record in
      let request = Request(number: record.gets.count, key: key, promise: Promise())
      record.gets.append(key)
      record.open[request.number] = request
      record.inFlight += 1
      record.maxInFlight = max(record.maxInFlight, record.inFlight)
      let forKey = record.inFlightByKey[key, default: 0] + 1
      record.inFlightByKey[key] = forKey
      record.maxInFlightForOneKey = max(record.maxInFlightForOneKey, forKey)
      return request
    }
    request.promise.onCancel { [self] in
      _ = close(request.number, cancelled: true)
    }
    switch mode {
    case .held:
      break
    case .immediate:
      complete(request.number)
    case .background:
      DispatchQueue.global().async { self.complete(request.number) }
    }
    return request.promise.future
  }

  /// Completes get `number` with `result`, by default its value. It stops
  /// counting as running before its future completes.
  func complete(_ number: Int, with result: FutureResult<String>? = nil) {
    guard let request = close(number, cancelled: false) else { return }
    request.promise.complete(result ?? .success(request.value))
  }

  /// Completes every open get with its value.
  func completeAll() {
    for request in open { complete(request.number) }
  }

  private func close(_ number: Int, cancelled: Bool) -> Request? {
    record.withLock { record in
      guard let request = record.open.removeValue(forKey: number) else { return nil }
      record.inFlight -= 1
      record.inFlightByKey[request.key, default: 1] -= 1
      if cancelled { record.cancelled.append(number) }
      return request
    }
  }

  @discardableResult
  func set(_ value: String, forKey key: Key) -> Future<Void> {
    record.withLock { $0.sets.append(key) }
    return Future()
  }

  @discardableResult
  func remove(_ key: Key) -> Future<Void> {
    record.withLock { $0.removes.append(key) }
    return Future()
  }

  func clear() {
    record.withLock { $0.clears += 1 }
  }

  func onMemoryWarning() {
    record.withLock { $0.memoryWarnings += 1 }
  }
}

/// Waits, without blocking a thread of the shared pool, until every future has
/// completed or `timeout` seconds have passed; returns whether all completed.
func waitUntilCompleted<T: Sendable>(_ futures: [Future<T>], timeout: Double = patience) async
  -> Bool
{
  await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
    let pending = Lock<CheckedContinuation<Bool, Never>?>(continuation)
    let resume: @Sendable (Bool) -> Void = { completed in
      pending.withLock { $0.take() }?.resume(returning: completed)
    }
    let group = DispatchGroup()
    for future in futures {
      group.enter()
      future.onCompletion { _ in group.leave() }
    }
    group.notify(queue: .global()) { resume(true) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { resume(false) }
  }
}

/// Runs `body(thread, index)` `perThread` times on each of `threads` threads,
/// started together, and returns every future it made. Waits without blocking
/// a thread of the shared pool.
func issueConcurrently<T: Sendable>(
  threads: Int,
  perThread: Int,
  _ body: @escaping @Sendable (_ thread: Int, _ index: Int) -> Future<T>
) async -> [Future<T>] {
  await withCheckedContinuation { (continuation: CheckedContinuation<[Future<T>], Never>) in
    let collected = Lock<(futures: [Future<T>], running: Int)>(([], threads))
    let go = DispatchSemaphore(value: 0)
    for thread in 0..<threads {
      Thread {
        go.wait()
        var mine: [Future<T>] = []
        mine.reserveCapacity(perThread)
        for index in 0..<perThread { mine.append(body(thread, index)) }
        let all: [Future<T>]? = collected.withLock { state in
          state.futures.append(contentsOf: mine)
          state.running -= 1
          return state.running == 0 ? state.futures : nil
        }
        if let all { continuation.resume(returning: all) }
      }.start()
    }
    for _ in 0..<threads { go.signal() }
  }
}
