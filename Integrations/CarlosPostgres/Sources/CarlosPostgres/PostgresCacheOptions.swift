#if Postgres
import Carlos

/// How a ``PostgresCacheLevel`` stores its values and how long it waits for the server.
public struct PostgresCacheOptions: Sendable {
  /// Which table the level's rows live in.
  public enum Durability: Sendable, Hashable {
    /// The `carlos_cache` table, created `UNLOGGED`: writes skip the write-ahead log
    /// (about twice as fast), and the table is emptied after a server crash and not
    /// replicated. The default: a cache can lose its contents.
    case unlogged
    /// The `carlos_cache_logged` table, an ordinary table: it survives crashes and
    /// is replicated, at the cost of a WAL write per change.
    case logged
  }

  /// The level's namespace: its rows are the ones with this namespace, and `clear()`
  /// removes only those. 1 to 200 UTF-8 bytes, without NUL.
  public var namespace: String
  /// Which table holds the rows (``Durability/unlogged`` by default).
  public var durability: Durability
  /// The most bytes (keys and values) the namespace may hold; `nil` for no limit.
  /// Enforced by batched eviction of the oldest written rows (see ``PostgresCacheLevel``).
  public var capacity: Int?
  /// The largest value accepted, in bytes (1 MiB by default); a larger one fails
  /// with ``PostgresCacheLevelError/valueTooLarge(size:limit:)`` and stores nothing.
  public var maximumValueSize: Int
  /// The largest key accepted, in UTF-8 bytes (256 KiB by default).
  public var maximumKeySize: Int
  /// How long any one operation may take before it fails with
  /// ``PostgresCacheLevelError/timedOut(operation:after:)`` (2 seconds by default).
  public var operationTimeout: Duration
  /// The expiry of values stored without one (``Expiry/never`` by default).
  public var defaultExpiry: Expiry
  /// How many rows `removeExpired()` and eviction delete per statement (1,000 by default).
  public var batchSize: Int
  /// Whether sets, removes and clears send a notification that other processes'
  /// ``CoherentCache``s use to drop the key from their upper levels (on by default).
  public var publishesInvalidations: Bool
  /// Where the level reads the time for expiry; ``SystemClock`` by default.
  public var clock: any CacheClock
  /// Whether the level creates its table and indexes when the table is missing
  /// (`true`, the default; a table that exists is used as it is). `false` never
  /// creates anything: for a role that may only read and write rows, whose table
  /// its owner creates beforehand with `SQL/least-privilege.sql`.
  public var createTable: Bool
  /// When given, keys are stored (and sent in notices) as HMAC-SHA256 digests made
  /// with its secret instead of in clear; `nil` (the default) stores them in clear.
  public var keyHashing: PostgresKeyHashing?

  /// Creates options for the namespace `namespace`, with the defaults above.
  public init(
    namespace: String,
    durability: Durability = .unlogged,
    capacity: Int? = nil,
    maximumValueSize: Int = 1 << 20,
    maximumKeySize: Int = 256 << 10,
    operationTimeout: Duration = .seconds(2),
    defaultExpiry: Expiry = .never,
    batchSize: Int = 1000,
    publishesInvalidations: Bool = true,
    clock: any CacheClock = SystemClock(),
    createTable: Bool = true,
    keyHashing: PostgresKeyHashing? = nil
  ) {
    self.namespace = namespace
    self.durability = durability
    self.capacity = capacity
    self.maximumValueSize = maximumValueSize
    self.maximumKeySize = maximumKeySize
    self.operationTimeout = operationTimeout
    self.defaultExpiry = defaultExpiry
    self.batchSize = batchSize
    self.publishesInvalidations = publishesInvalidations
    self.clock = clock
    self.createTable = createTable
    self.keyHashing = keyHashing
  }
}
#endif
