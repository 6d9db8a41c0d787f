/// The composition `upper >>> lower` of two levels that can insert atomically: a
/// composed cache (see ``CacheLevel/compose(_:)-(Next)``) that is itself an
/// ``InsertingCacheLevel``, so that stores needing "create unless it exists"
/// (framework persistence and session drivers) can take `memory >>> database`.
///
/// `insertIfAbsent` asks the lower level, which decides atomically; when it stored,
/// the value is also set into the upper level (with the same expiry), unless a set,
/// remove or clear went through the composition since, and the call succeeds with
/// `true` even if that upper set fails (the lower level holds the value; a get finds
/// it there). When the lower level already holds a value, nothing is stored and the
/// call succeeds with `false`. Every other operation behaves as in the plain
/// composition. When both levels are ``TimedCacheLevel``s, so is the composition:
/// `entry(forKey:)` answers the upper level's entry, or the lower one's on a miss.
///
/// ```swift
/// let sessions = MemoryCacheLevel<String, Data>(capacity: 1 << 20)
///   >>> DiskCacheLevel<String, Data>(capacity: 64 << 20)
/// let created = try await sessions.insertIfAbsent(Data("token".utf8), forKey: "session:1")
/// ```
public struct InsertingComposition<Upper: InsertingCacheLevel, Lower: InsertingCacheLevel>:
  InsertingCacheLevel
where Upper.KeyType == Lower.KeyType, Upper.OutputType == Lower.OutputType {
  /// The keys of both levels.
  public typealias KeyType = Upper.KeyType
  /// The values of both levels.
  public typealias OutputType = Upper.OutputType

  /// The level asked first.
  public let upper: Upper
  /// The level asked on a miss of `upper`, and the one that decides insertions.
  public let lower: Lower
  /// The per-key write counters shared by every operation of the composition.
  @usableFromInline let versions: WriteVersions
  /// The plain composition, which answers everything but insertions and entries.
  @usableFromInline let composed: BasicCache<KeyType, OutputType>

  /// Composes `upper` with `lower`; the same as `upper >>> lower`.
  @inlinable
  public init(upper: Upper, lower: Lower) {
    let versions = WriteVersions()
    self.upper = upper
    self.lower = lower
    self.versions = versions
    self.composed = upper.compose(lower, versions: versions)
  }

  /// The name of the composition: `upper >>> lower` with the two levels' names.
  public var levelName: String { "\(upper.levelName) >>> \(lower.levelName)" }

  /// Asks `upper`, then `lower` on a miss, writing a value found below into `upper`.
  @inlinable
  public func get(_ key: KeyType) -> Future<OutputType> { composed.get(key) }

  /// Stores `value` into both levels.
  @inlinable
  @discardableResult
  public func set(_ value: OutputType, forKey key: KeyType) -> Future<Void> {
    composed.set(value, forKey: key)
  }

  /// Stores `value` into both levels, valid until `expiry`.
  @inlinable
  @discardableResult
  public func set(_ value: OutputType, forKey key: KeyType, expiry: Expiry) -> Future<Void> {
    composed.set(value, forKey: key, expiry: expiry)
  }

  /// Removes `key` from both levels.
  @inlinable
  @discardableResult
  public func remove(_ key: KeyType) -> Future<Void> { composed.remove(key) }

  /// Removes the expired values of both levels.
  @inlinable
  @discardableResult
  public func removeExpired() -> Future<Void> { composed.removeExpired() }

  /// Answers like ``get(_:)``, naming the level that had the value.
  @inlinable
  public func getWithSource(_ key: KeyType) -> Future<CacheAnswer<OutputType>> {
    composed.getWithSource(key)
  }

  /// Clears both levels.
  @inlinable
  public func clear() { composed.clear() }

  /// Forwards the memory warning to both levels.
  @inlinable
  public func onMemoryWarning() { composed.onMemoryWarning() }

  /// Stores `value` unless `lower` holds one for `key`; when stored, `upper` gets it
  /// too. Each level's expiration policy applies.
  @inlinable
  @discardableResult
  public func insertIfAbsent(_ value: OutputType, forKey key: KeyType) -> Future<Bool> {
    insert(key, value) {
      lower.insertIfAbsent(value, forKey: key)
    } alsoSet: {
      upper.set(value, forKey: key)
    }
  }

  /// Stores `value`, valid until `expiry`, unless `lower` holds one for `key`; when
  /// stored, `upper` gets it too, with the same expiry.
  @inlinable
  @discardableResult
  public func insertIfAbsent(_ value: OutputType, forKey key: KeyType, expiry: Expiry)
    -> Future<Bool>
  {
    insert(key, value) {
      lower.insertIfAbsent(value, forKey: key, expiry: expiry)
    } alsoSet: {
      upper.set(value, forKey: key, expiry: expiry)
    }
  }

  /// Issues `insertBelow` in order with the composition's writes of `key`; when it
  /// stored, runs `setAbove` unless a write of `key` (a set, remove or clear) went
  /// through the composition since. An insert is not itself such a write: of many
  /// racing inserts only one stores, and the others, which change nothing, must not
  /// keep the one that stored from reaching the upper level.
  @inlinable
  func insert(
    _ key: KeyType,
    _ value: OutputType,
    below insertBelow: () -> Future<Bool>,
    alsoSet setAbove: @escaping @Sendable () -> Future<Void>
  ) -> Future<Bool> {
    let (version, inserted) = versions.issuedInOrder(key, insertBelow)
    let versions = versions
    let upper = upper
    return inserted.map { stored in
      guard stored else { return false }
      let set = versions.ifUnchanged(key, since: version, setAbove)
      set?.onFailure { error in
        CarlosLogger.log(
          "Could not store an inserted value in the upper level: \(error)", .warning,
          metadata: ["level": upper.levelName, "key": CarlosLogger.key(key)])
      }
      return true
    }
  }
}

extension InsertingComposition: TimedCacheLevel
where Upper: TimedCacheLevel, Lower: TimedCacheLevel {
  /// The upper level's entry for `key`, or the lower level's when the upper one has
  /// none. The entry found below is not copied up (a get does that).
  @inlinable
  public func entry(forKey key: KeyType) -> Future<CacheEntry<OutputType>> {
    fallThrough(
      key, first: upper.entry(forKey: key), versions: versions,
      lower: { lower.entry(forKey: key) }, writeBack: { entry, _ in entry })
  }
}

extension InsertingComposition {
  /// The plain composition's identity: copies of the composition share passes in
  /// `get(_:orLoad:)`, as copies of a composed ``BasicCache`` do.
  public var _loadIdentity: ObjectIdentifier? { composed._loadIdentity }
}

extension WriteVersions {
  /// Runs `body` under `key`'s stripe lock, so it reaches the levels in order with the
  /// writes of `key`, without counting as a write; answers the stripe's version with
  /// `body`'s result, for a later ``ifUnchanged(_:since:_:)``.
  @inlinable
  func issuedInOrder<Key, Result: Sendable>(_ key: Key, _ body: () -> Result) -> (
    UInt64, Result
  ) {
    stripe(of: key).version.withLock { version in (version, body()) }
  }
}

extension InsertingCacheLevel {
  /// Composes this level with a lower one that can also insert atomically (see
  /// ``InsertingComposition``); `upper >>> lower` gives the same.
  @inlinable
  public func compose<Next: InsertingCacheLevel>(_ next: Next) -> InsertingComposition<Self, Next>
  where Next.KeyType == KeyType, Next.OutputType == OutputType {
    InsertingComposition(upper: self, lower: next)
  }
}
