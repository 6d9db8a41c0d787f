import Dispatch
import Foundation

extension Future {
  /// Returns a future that completes like this one, `seconds` later.
  /// Cancelling it cancels this future.
  public func snooze(_ seconds: TimeInterval) -> Future<Value> {
    derive { result, derived in
      DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
        derived.complete(result)
      }
      return nil
    }
  }

  /// Returns a future that completes like this one, or fails with
  /// ``FutureError/timeout`` when `seconds` pass first. On a timeout this one is
  /// cancelled before the returned future fails.
  public func timeout(after seconds: TimeInterval) -> Future<Value> {
    if let result { return Future(result: result) }
    // The source's result and the timer race to take the derived future from
    // the slot; the winner completes it. The timer cancels the source first, so
    // whoever sees the timeout sees the source stopped. Once the derived future
    // completes the slot is emptied, so a pending timer never keeps a result alive.
    // These are `derive`'s steps, spelled out so the slot holds the derived
    // future before the source can complete.
    let derived = Future<Value>(pending: ())
    let slot = TimeoutSlot(derived)
    derived.onCompletion { _ in slot.empty() }
    derived.cancelOnCancel(self)
    if let started = chain({ slot.take()?.completeLater($0) }) { drain(started) }
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
      guard let timedOut = slot.take() else { return }
      self?.cancel()
      timedOut.complete(.error(FutureError.timeout))
    }
    return derived
  }
}

/// Runs `futureClosure`, and again after `delay` seconds each time it fails, up to
/// `count` more times. The returned future completes with the first success or
/// with the last failure. Cancelling it cancels the running attempt and stops retrying.
public func retry<T: Sendable>(
  _ count: Int,
  every delay: TimeInterval,
  futureClosure: @escaping @Sendable () -> Future<T>
) -> Future<T> {
  let result = Future<T>(pending: ())
  attempt(remaining: count, delay: delay, futureClosure, into: result)
  return result
}

private func attempt<T: Sendable>(
  remaining: Int,
  delay: TimeInterval,
  _ futureClosure: @escaping @Sendable () -> Future<T>,
  into result: Future<T>
) {
  if result.isCompleted { return }
  let current = futureClosure()
  result.onCancel { [weak current] in current?.cancel() }
  current.onCompletion { outcome in
    guard case .error = outcome, remaining > 0 else {
      result.complete(outcome)
      return
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
      attempt(remaining: remaining - 1, delay: delay, futureClosure, into: result)
    }
  }
}
