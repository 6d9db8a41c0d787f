import Benchmark
import Foundation
import Synchronization

/// The simplest thread-safe memory cache: a dictionary behind a mutex.
final class MutexDictionary: Sendable {
  private let storage = Mutex<[String: Data]>([:])

  func get(_ key: String) -> Data? { storage.withLock { $0[key] } }

  func set(_ value: Data, forKey key: String) { storage.withLock { $0[key] = value } }
}

/// An `NSCache` with the fixture's keys and values already bridged to Foundation objects.
struct NSCacheFixture {
  let cache = NSCache<NSString, NSData>()
  let keys: [NSString] = Fixtures.keys.map { $0 as NSString }
  let values: [NSData] = Fixtures.values.map { $0 as NSData }
}

/// Baselines for the memory level: `Dictionary` + `Mutex`, and `NSCache`.
func memoryBaselineBenchmarks() {
  Benchmark("memory.get · baseline Dictionary+Mutex") { benchmark, cache in
    for i in benchmark.scaledIterations {
      blackHole(cache.get(Fixtures.key(i)))
    }
  } setup: { () -> MutexDictionary in
    let cache = MutexDictionary()
    for i in 0..<Fixtures.keyCount { cache.set(Fixtures.value(i), forKey: Fixtures.key(i)) }
    return cache
  }

  Benchmark("memory.set · baseline Dictionary+Mutex") { benchmark, cache in
    for i in benchmark.scaledIterations {
      cache.set(Fixtures.value(i), forKey: Fixtures.key(i))
    }
  } setup: {
    MutexDictionary()
  }

  Benchmark("memory.get · baseline NSCache") { benchmark, fixture in
    for i in benchmark.scaledIterations {
      blackHole(fixture.cache.object(forKey: fixture.keys[i & (Fixtures.keyCount - 1)]))
    }
  } setup: { () -> NSCacheFixture in
    let fixture = NSCacheFixture()
    for i in 0..<Fixtures.keyCount {
      fixture.cache.setObject(fixture.values[i], forKey: fixture.keys[i])
    }
    return fixture
  }

  Benchmark("memory.set · baseline NSCache") { benchmark, fixture in
    for i in benchmark.scaledIterations {
      let index = i & (Fixtures.keyCount - 1)
      fixture.cache.setObject(fixture.values[index], forKey: fixture.keys[index])
    }
  } setup: {
    NSCacheFixture()
  }
}
