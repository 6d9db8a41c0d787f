/// A cache level in memory, bounded by the total cost of what it holds.
///
/// Every value has a cost (``ExpensiveObject/cost``: bytes for `Data` and
/// `String`, 1 for numbers); the level never holds more than `capacity` in total
/// once a `set` has returned. When a new value does not fit, the
/// ``EvictionPolicy`` picks what to drop; the value just stored is always kept.
/// The default policy, adaptive W-TinyLFU, keeps the values most likely to be
/// asked for again on a wide range of workloads (recency-bound, frequency-bound,
/// loops and scans).
///
/// `get` and `set` take O(1) time (amortized: one `set` may evict many small
/// values) and are safe to call from many threads at once; they answer with
/// futures that are already complete. A hit returns the same completed future
/// for a stored value until that value is replaced, so hits allocate nothing
/// after the first. A miss fails with ``FetchError/valueNotInCache``. `clear()`
/// and `onMemoryWarning()` empty the level.
///
/// Costs below 1 count as 1, so the number of values is bounded by the capacity
/// too. A value whose cost exceeds the whole capacity is not stored: its `set`
/// fails with ``MemoryCacheLevelError/valueTooLarge(cost:capacity:)`` and any
/// older value for that key is removed, so a later `get` cannot return stale data.
///
/// Costs count only what the values report: the level's own bookkeeping adds
/// roughly 100–150 bytes per entry (index, access-order links, frequency sketch,
/// eviction history, and the shared future of a value that has been read).
///
/// ```swift
/// let memory = MemoryCacheLevel<URL, Data>(capacity: 64 << 20)  // 64 MiB
/// ```
public final class MemoryCacheLevel<Key: Hashable & Sendable, Value: ExpensiveObject & Sendable>:
  CacheLevel
{
  public typealias KeyType = Key
  public typealias OutputType = Value

  /// The total cost the level may hold.
  public let capacity: Int
  /// How the level chooses what to drop.
  public let policy: EvictionPolicy

  @usableFromInline let table: Lock<EntryTable<Key, Value>>
  /// Returned for every miss: a completed future can be shared, as nothing can change it.
  @usableFromInline let missFuture: Future<Value>
  /// Returned for every successful set.
  @usableFromInline let storedFuture: Future<Void>

  /// Creates an empty level.
  ///
  /// - Parameters:
  ///   - capacity: the largest total cost the level holds; by default 100 MiB
  ///     worth of cost. A negative capacity counts as 0 (nothing can be stored);
  ///     capacities above `Int.max / 2` count as `Int.max / 2`.
  ///   - policy: how the level chooses what to drop; by default ``EvictionPolicy/adaptiveTinyLFU``.
  public init(capacity: Int = 100 * 1024 * 1024, policy: EvictionPolicy = .adaptiveTinyLFU) {
    let capacity = Swift.min(Swift.max(0, capacity), Int.max / 2)
    self.capacity = capacity
    self.policy = policy
    let mode: WindowTinyLFU.Mode
    switch policy {
    case .lru: mode = .lru
    case .tinyLFU: mode = .fixedWindow
    case .adaptiveTinyLFU: mode = .adaptiveWindow
    }
    let eviction = WindowTinyLFU(capacity: capacity, mode: mode, random: SplitMix64())
    table = Lock(EntryTable(policy: eviction))
    missFuture = Future(FetchError.valueNotInCache)
    storedFuture = Future()
  }

  /// Answers with the value stored under `key` (an already completed future), or
  /// fails with ``FetchError/valueNotInCache``.
  @inlinable
  public func get(_ key: Key) -> Future<Value> {
    table.withLock { table in table.future(for: key) } ?? missFuture
  }

  /// Stores `value` under `key`, evicting other values if needed so the total
  /// cost fits the capacity. Answers with an already completed future, which
  /// fails with ``MemoryCacheLevelError/valueTooLarge(cost:capacity:)`` when the
  /// value alone costs more than the capacity.
  @inlinable
  @discardableResult
  public func set(_ value: Value, forKey key: Key) -> Future<Void> {
    let cost = Swift.max(1, value.cost)
    guard cost <= capacity else {
      table.withLock { table in table.removeValue(for: key) }
      return Future(MemoryCacheLevelError.valueTooLarge(cost: cost, capacity: capacity))
    }
    let hash = policy == .lru ? 0 : UInt64(bitPattern: Int64(key.hashValue))
    table.withLock { table in table.store(value, cost: cost, hash: hash, for: key) }
    return storedFuture
  }

  /// Removes the value stored under `key`, if any. Answers with an already completed future.
  @discardableResult
  public func remove(_ key: Key) -> Future<Void> {
    table.withLock { table in table.removeValue(for: key) }
    return storedFuture
  }

  /// Removes every value. Values are released after the lock is given up.
  public func clear() {
    let emptied = table.withLock { table in table.takeAll() }
    withExtendedLifetime(emptied) {}
  }

  /// Removes every value, freeing the memory they used.
  public func onMemoryWarning() {
    clear()
  }

  /// The sum of the costs of the values the level holds.
  public var totalCost: Int {
    table.withLock { $0.totalCost }
  }

  /// The number of values the level holds.
  public var count: Int {
    table.withLock { $0.count }
  }
}
