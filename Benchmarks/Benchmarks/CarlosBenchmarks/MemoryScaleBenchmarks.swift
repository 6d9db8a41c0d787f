import Benchmark
import Carlos
import Dispatch

/// A filled cache and the keys a sample reads from it.
struct ScaleGetState<Cache: ScaleCache>: @unchecked Sendable {
  // @unchecked: the benchmark's closures use the state from one thread at a time,
  // and the two-thread rows only read `keys` (an array never written after setup).
  let cache: Cache
  let keys: [Cache.Key]
}

/// A cache filled to its bound and the fresh keys the samples store.
struct ScaleSetState<Cache: ScaleCache>: @unchecked Sendable {
  // @unchecked: as ``ScaleGetState``; the cursor is atomic.
  let cache: Cache
  /// Keys never stored before, one per set, from `fresh[0]` on.
  let fresh: [Cache.Key]
  /// The keys stored before, the oldest first (as many as the level's capacity).
  let stored: [Cache.Key]
  let cursor = ScaleCursor()

  /// The key a dictionary drops when it stores `fresh[i]`: the one stored
  /// `stored.count` sets before, so it holds as many keys as a level at its bound.
  func oldest(_ i: Int) -> Cache.Key {
    i < stored.count ? stored[i] : fresh[i - stored.count]
  }
}

/// The memory level at working sets of 1,000 to 1,000,000 stored keys against a
/// dictionary behind a mutex and a sharded one, in the same run (issue 22):
///
/// - `memory.scale.get.<size>.<access>.<key>`: get hits, one thread, from a
///   precomputed sequence of stored keys (uniform, or Zipf 0.99 over shuffled
///   ranks), each sample a run of 1,000 gets from a random place in it; the
///   levels' capacity holds every key.
/// - `memory.scale.set.<size>.<key>`: sets of keys never stored before into a
///   level whose capacity is 90 % of `size` and which holds `size` keys' worth
///   already (every set evicts); the dictionaries hold as many keys and drop their
///   oldest one with each set (a FIFO bound, the cheapest correct bound).
/// - `memory.scale.concurrent.<size>`: get hits of `String` keys in uniform random
///   order on one and on two threads, 65,536 per thread per sample; both threads
///   read the same hot keys from different places in the sequence.
///
/// Setup (filling the caches and drawing the sequences) is outside the measured
/// region; the whole group runs in a few minutes.
func memoryScaleBenchmarks() {
  ScaleGetRegistrar<Int>().register()
  ScaleGetRegistrar<String>().register()
  ScaleSetRegistrar<Int>().register()
  ScaleSetRegistrar<String>().register()
  ScaleConcurrentRegistrar<String>().register()
}

/// The configuration of the one-thread rows: 1,000 operations per sample.
var scaleConfiguration: Benchmark.Configuration {
  Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal],
    timeUnits: .nanoseconds,
    warmupIterations: 20,
    scalingFactor: .kilo,
    maxDuration: .seconds(1),
    maxIterations: 500
  )
}

/// Registers the get rows for keys of type `Key`.
struct ScaleGetRegistrar<Key: ScaleKey>: ScaleSubjectVisitor {
  func register() { visitAll(Key.self) }

  func visit<Cache: ScaleCache>(
    _ name: String, boundsItself: Bool, make: @escaping @Sendable (Int) -> Cache
  ) {
    for size in ScaleFixtures.sizes {
      for access in ScaleAccess.allCases {
        let group = "memory.scale.get.\(ScaleFixtures.label(size)).\(access).\(Cache.Key.label)"
        Benchmark("\(group) · \(name)", configuration: scaleConfiguration) {
          (benchmark: Benchmark, state: ScaleGetState<Cache>) in
          let mask = state.keys.count - 1
          let start = Int.random(in: 0...mask)
          for i in benchmark.scaledIterations {
            state.cache.read(state.keys[(start &+ i) & mask])
          }
        } setup: {
          let keys = ScaleFixtures.keys(size, as: Cache.Key.self)
          let cache = make(size)
          for (number, key) in keys.enumerated() { cache.write(number, key) }
          return ScaleGetState(
            cache: cache, keys: ScaleFixtures.sequence(size: size, access: access, keys: keys))
        }
      }
    }
  }
}

/// Registers the set rows for keys of type `Key`.
struct ScaleSetRegistrar<Key: ScaleKey>: ScaleSubjectVisitor {
  /// Sets per benchmark at most (warm-up included): the fresh keys made in setup.
  static var freshKeys: Int { 1 << 19 }

  func register() { visitAll(Key.self) }

  func visit<Cache: ScaleCache>(
    _ name: String, boundsItself: Bool, make: @escaping @Sendable (Int) -> Cache
  ) {
    var configuration = scaleConfiguration
    configuration.maxIterations = Self.freshKeys / 1_000 - configuration.warmupIterations
    for size in ScaleFixtures.sizes {
      let group = "memory.scale.set.\(ScaleFixtures.label(size)).\(Cache.Key.label)"
      Benchmark("\(group) · \(name)", configuration: configuration) {
        (benchmark: Benchmark, state: ScaleSetState<Cache>) in
        let count = benchmark.scaledIterations.count
        let start = state.cursor.take(count)
        precondition(start + count <= state.fresh.count, "out of fresh keys")
        for i in start..<(start + count) {
          state.cache.write(i, state.fresh[i])
          if !boundsItself { state.cache.drop(state.oldest(i)) }
        }
      } setup: {
        let capacity = size * 9 / 10
        let keys = ScaleFixtures.keys(size + Self.freshKeys, as: Cache.Key.self)
        let cache = make(capacity)
        // A level (or the LRU dictionary) gets every key and evicts a tenth; a plain
        // dictionary gets the newest `capacity` ones and drops the oldest with each new key.
        for number in (boundsItself ? 0 : size - capacity)..<size {
          cache.write(number, keys[number])
        }
        return ScaleSetState(
          cache: cache, fresh: Array(keys[size...]), stored: Array(keys[(size - capacity)..<size]))
      }
    }
  }
}

/// Registers the two-thread rows (and their one-thread references), `String` keys.
struct ScaleConcurrentRegistrar<Key: ScaleKey>: ScaleSubjectVisitor {
  /// Gets per thread per sample.
  static var operations: Int { 65_536 }

  func register() { visitAll(Key.self) }

  func visit<Cache: ScaleCache>(
    _ name: String, boundsItself: Bool, make: @escaping @Sendable (Int) -> Cache
  ) {
    let configuration = Benchmark.Configuration(
      metrics: [.wallClock],
      timeUnits: .microseconds,
      warmupIterations: 3,
      scalingFactor: .one,
      maxDuration: .seconds(2),
      maxIterations: 100
    )
    for size in [1_000, 100_000] {
      for threads in [1, 2] {
        let label = threads == 1 ? "1 thread" : "2 threads"
        let group = "memory.scale.concurrent.\(ScaleFixtures.label(size))"
        Benchmark(
          "\(group) · \(name), \(label), random get hits of shared keys",
          configuration: configuration
        ) { (_: Benchmark, state: ScaleGetState<Cache>) in
          let mask = state.keys.count - 1
          let start = Int.random(in: 0...mask)
          DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let offset = start &+ thread &* (state.keys.count / 2)
            for i in 0..<Self.operations {
              state.cache.read(state.keys[(offset &+ i) & mask])
            }
          }
        } setup: {
          let keys = ScaleFixtures.keys(size, as: Cache.Key.self)
          let cache = make(size)
          for (number, key) in keys.enumerated() { cache.write(number, key) }
          return ScaleGetState(
            cache: cache, keys: ScaleFixtures.sequence(size: size, access: .uniform, keys: keys))
        }
      }
    }
  }
}
