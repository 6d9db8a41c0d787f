/// Decides how the admission window of W-TinyLFU should change, by hill
/// climbing on the hit ratio (the scheme Caffeine uses).
///
/// Requests are counted in sample periods. At the end of a period the climber
/// compares the period's hit ratio with the previous one: if it did not get worse
/// it keeps moving the window in the same direction, otherwise it turns around.
/// The step starts at 6.25 % of the capacity and decays by 2 % each period so the
/// window settles; a change of the hit ratio by 5 points or more restarts the
/// step at full size, so the climber follows a workload that changes.
@usableFromInline
struct HillClimber: Sendable {
  /// The first step, as a fraction of the capacity.
  @usableFromInline static let stepFraction = 0.0625
  /// Each period the step is multiplied by this.
  @usableFromInline static let stepDecay = 0.98
  /// A change of the hit ratio at least this large restarts the step at full size.
  @usableFromInline static let restartThreshold = 0.05

  /// Hits in the current sample period.
  @usableFromInline var hits = 0
  /// Misses in the current sample period.
  @usableFromInline var misses = 0
  /// The hit ratio of the previous sample period.
  @usableFromInline var previousHitRatio = 0.0
  /// The next step, in cost units; positive grows the window, negative shrinks it.
  @usableFromInline var step: Double
  /// The full step size, in cost units.
  @usableFromInline let fullStep: Double

  /// Creates a climber for a cache of `capacity` cost units. Its first move
  /// shrinks the window.
  @inlinable
  init(capacity: Int) {
    fullStep = Self.stepFraction * Double(capacity)
    step = -fullStep
  }

  /// Counts a request that hit.
  @inlinable
  mutating func recordHit() {
    hits &+= 1
  }

  /// Counts a request that missed.
  @inlinable
  mutating func recordMiss() {
    misses &+= 1
  }

  /// When the current sample period (`sampleSize` requests) is complete, starts a
  /// new one and returns how much the window should change, in cost units
  /// (positive: grow). Returns `nil` while the period is still running.
  @inlinable
  mutating func adjustment(sampleSize: Int) -> Int? {
    let requests = hits &+ misses
    guard requests >= sampleSize, requests > 0 else { return nil }
    let hitRatio = Double(hits) / Double(requests)
    let change = hitRatio - previousHitRatio
    let amount = change >= 0 ? step : -step
    if abs(change) >= Self.restartThreshold {
      step = amount >= 0 ? fullStep : -fullStep
    } else {
      step = Self.stepDecay * amount
    }
    previousHitRatio = hitRatio
    hits = 0
    misses = 0
    return Int(amount)
  }
}
