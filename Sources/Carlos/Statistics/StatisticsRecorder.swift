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
  /// The eviction counters: evictions are recorded by one thread at a time (the
  /// holder of the level's eviction lock), so they are added to without a locked
  /// instruction, which would wait for every pending store of the eviction.
  @usableFromInline let evictionCounters = Stripe()

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

  /// Records the eviction of a value of `cost`. The caller holds the lock that
  /// serialises the level's evictions.
  @inlinable
  func recordEviction(cost: Int) {
    let counters = evictionCounters
    counters.evictions.store(counters.evictions.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
    counters.evictedCost.store(
      counters.evictedCost.load(ordering: .relaxed) &+ cost, ordering: .relaxed)
  }

  /// The sum of every stripe, and the evictions.
  var snapshot: CacheStatistics {
    var total = CacheStatistics()
    var nanoseconds = 0
    for stripe in stripes {
      total.hitCount += stripe.hits.load(ordering: .relaxed)
      total.missCount += stripe.misses.load(ordering: .relaxed)
      total.loadSuccessCount += stripe.loadSuccesses.load(ordering: .relaxed)
      total.loadFailureCount += stripe.loadFailures.load(ordering: .relaxed)
      nanoseconds += stripe.loadNanoseconds.load(ordering: .relaxed)
    }
    total.evictionCount += evictionCounters.evictions.load(ordering: .relaxed)
    total.evictedCost += evictionCounters.evictedCost.load(ordering: .relaxed)
    total.totalLoadTime = .nanoseconds(nanoseconds)
    return total
  }
}
