import Synchronization

/// The counters behind a level's ``CacheStatistics``, striped by thread: each
/// thread adds to the counters of its own stripe, so threads reading at once do not
/// write to one shared cache line. A snapshot sums the stripes; totals are exact.
@usableFromInline
final class StatisticsRecorder: Sendable {
  /// The counters of one stripe, padded to keep stripes on separate cache lines.
  @usableFromInline
  final class Stripe: Sendable {
    @usableFromInline let hits = Atomic<Int>(0)
    @usableFromInline let misses = Atomic<Int>(0)
    @usableFromInline let loadSuccesses = Atomic<Int>(0)
    @usableFromInline let loadFailures = Atomic<Int>(0)
    @usableFromInline let loadNanoseconds = Atomic<Int>(0)
    @usableFromInline let evictions = Atomic<Int>(0)
    @usableFromInline let evictedCost = Atomic<Int>(0)
    let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

    @usableFromInline init() {}
  }

  @usableFromInline static var stripeCount: Int { 16 }
  @usableFromInline let stripes: [Stripe]

  @usableFromInline
  init() {
    stripes = (0..<Self.stripeCount).map { _ in Stripe() }
  }

  /// The stripe of the calling thread.
  @inlinable
  var stripe: Stripe {
    stripes[threadStripe() & (Self.stripeCount - 1)]
  }

  @inlinable
  func recordHit() { stripe.hits.wrappingAdd(1, ordering: .relaxed) }

  @inlinable
  func recordMiss() { stripe.misses.wrappingAdd(1, ordering: .relaxed) }

  @inlinable
  func recordLoad(succeeded: Bool, nanoseconds: Int) {
    let stripe = stripe
    if succeeded {
      stripe.loadSuccesses.wrappingAdd(1, ordering: .relaxed)
    } else {
      stripe.loadFailures.wrappingAdd(1, ordering: .relaxed)
    }
    stripe.loadNanoseconds.wrappingAdd(nanoseconds, ordering: .relaxed)
  }

  @inlinable
  func recordEviction(cost: Int) {
    let stripe = stripe
    stripe.evictions.wrappingAdd(1, ordering: .relaxed)
    stripe.evictedCost.wrappingAdd(cost, ordering: .relaxed)
  }

  /// The sum of every stripe.
  var snapshot: CacheStatistics {
    var total = CacheStatistics()
    var nanoseconds = 0
    for stripe in stripes {
      total.hitCount += stripe.hits.load(ordering: .relaxed)
      total.missCount += stripe.misses.load(ordering: .relaxed)
      total.loadSuccessCount += stripe.loadSuccesses.load(ordering: .relaxed)
      total.loadFailureCount += stripe.loadFailures.load(ordering: .relaxed)
      nanoseconds += stripe.loadNanoseconds.load(ordering: .relaxed)
      total.evictionCount += stripe.evictions.load(ordering: .relaxed)
      total.evictedCost += stripe.evictedCost.load(ordering: .relaxed)
    }
    total.totalLoadTime = .nanoseconds(nanoseconds)
    return total
  }
}
