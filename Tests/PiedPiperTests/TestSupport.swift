import Dispatch
import Foundation
import PiedPiper
import Synchronization
import Testing

/// An error with a code, so tests can tell which failure arrived.
struct TestError: Error, Equatable {
  let code: Int

  init(_ code: Int = 0) {
    self.code = code
  }
}

/// An object whose lifetime tests observe through a weak reference.
final class Tracked: Sendable {}

/// A value behind PiedPiper's `Lock`, shareable by reference across threads.
final class Guarded<Value: Sendable>: Sendable {
  private let lock: Lock<Value>

  init(_ value: Value) {
    lock = Lock(value)
  }

  /// Runs `body` with exclusive access to the value.
  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.withLock { body(&$0) }
  }
}

/// A thread-safe counter.
final class Counter: Sendable {
  private let count = Atomic(0)

  /// The current count.
  var value: Int { count.load(ordering: .sequentiallyConsistent) }

  /// Adds one and returns the new count.
  @discardableResult
  func increment() -> Int {
    count.add(1, ordering: .sequentiallyConsistent).newValue
  }
}

/// A thread-safe list that records events in the order they happen.
final class Recorder<Element: Sendable>: Sendable {
  private let list = Guarded<[Element]>([])

  /// The events so far.
  var events: [Element] { list.withLock { $0 } }

  /// Records `event`.
  func record(_ event: Element) {
    list.withLock { $0.append(event) }
  }
}

/// Whether the tests run under ThreadSanitizer (its runtime is linked in).
let underThreadSanitizer: Bool = {
  guard let program = dlopen(nil, RTLD_NOW) else { return false }
  defer { dlclose(program) }
  return dlsym(program, "__tsan_init") != nil
}()

/// The longest a test waits for something that should happen promptly: a minute,
/// five under ThreadSanitizer, where the whole suite runs several times slower and
/// long synchronous tests keep the cooperative threads busy for a while.
let patience: TimeInterval = underThreadSanitizer ? 300 : 60

/// A sleep no test outlives, so only cancellation ends it, however long the
/// machine keeps the test from running (a one-minute sleep ran out before the
/// cancel in a loaded ThreadSanitizer run).
let longerThanAnyTest: TimeInterval = 4 * patience

/// Waits for `future` to complete, at most `seconds`, without cancelling it.
/// Returns `nil` (and records an issue) when it did not complete in time.
func outcome<T: Sendable>(
  of future: Future<T>,
  within seconds: TimeInterval = patience,
  sourceLocation: SourceLocation = #_sourceLocation
) async -> FutureResult<T>? {
  let result = await withCheckedContinuation {
    (continuation: CheckedContinuation<FutureResult<T>?, Never>) in
    let pending = Guarded<CheckedContinuation<FutureResult<T>?, Never>?>(continuation)
    let resume: @Sendable (FutureResult<T>?) -> Void = { result in
      pending.withLock { $0.take() }?.resume(returning: result)
    }
    future.onCompletion { resume($0) }
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { resume(nil) }
  }
  if result == nil {
    Issue.record("the future did not complete within \(seconds) s", sourceLocation: sourceLocation)
  }
  return result
}

/// Sleeps for `seconds` without blocking a thread; used to give work that
/// must NOT happen a chance to happen.
func pause(_ seconds: TimeInterval) async {
  try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
}

/// Polls `condition` until it holds, at most `seconds`; returns whether it held.
func eventually(
  within seconds: TimeInterval = patience,
  _ condition: () -> Bool
) async -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while !condition() {
    if Date() > deadline { return false }
    await pause(0.001)
  }
  return true
}

/// Runs `body(index)` on `count` new threads at once and returns when all have finished.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    let remaining = Guarded(count)
    for index in 0..<count {
      let thread = Thread {
        body(index)
        let last = remaining.withLock {
          $0 -= 1
          return $0 == 0
        }
        if last { continuation.resume() }
      }
      thread.start()
    }
  }
}

extension FutureResult {
  /// The error as a ``TestError``, when the result is one.
  var testError: TestError? { error as? TestError }

  /// The error as a ``FutureError``, when the result is one.
  var futureError: FutureError? { error as? FutureError }
}

/// A deterministic pseudo-random generator (SplitMix64), so generated inputs
/// are the same on every run.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
