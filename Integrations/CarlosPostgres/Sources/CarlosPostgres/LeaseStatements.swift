#if Postgres
import Foundation
import PostgresNIO

/// The table of load leases: which instance loads a key of a namespace, and until when
/// (microseconds of the server's clock). `UNLOGGED`: a lease lives seconds.
enum LeaseTable {
  static let name = "carlos_cache_leases"

  /// The statement that creates the table if it is missing.
  static let schema = [
    """
    CREATE UNLOGGED TABLE IF NOT EXISTS carlos_cache_leases (
      namespace text NOT NULL,
      key_hash bytea NOT NULL,
      owner uuid NOT NULL,
      deadline bigint NOT NULL,
      PRIMARY KEY (namespace, key_hash))
    """
  ]

  /// The server's clock in microseconds.
  static let now = "(extract(epoch FROM clock_timestamp()) * 1000000)::bigint"
}

/// Takes the lease on a key for `owner` for `lease` microseconds, when nobody holds it
/// or its holder's deadline has passed. A row comes back when it was taken: `true`
/// when it was taken over from a holder whose deadline had passed.
struct TakeLease: PostgresPreparedStatement {
  typealias Row = Bool
  static let sql = """
    INSERT INTO carlos_cache_leases AS held (namespace, key_hash, owner, deadline)
    VALUES ($1, sha256($2), $3, \(LeaseTable.now) + $4)
    ON CONFLICT (namespace, key_hash) DO UPDATE
      SET owner = EXCLUDED.owner, deadline = EXCLUDED.deadline
      WHERE held.deadline < \(LeaseTable.now)
    RETURNING xmax <> 0
    """
  var namespace: String
  var key: Data
  var owner: UUID
  var lease: Int64
  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 4)
    bindings.append(namespace)
    try bindings.append(key)
    bindings.append(owner)
    bindings.append(lease)
    return bindings
  }
  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Bool.self) }
}

/// Gives up `owner`'s lease on a key (nothing when another instance holds it now).
struct ReleaseLease: PostgresPreparedStatement {
  typealias Row = Int64
  static let sql = """
    WITH gone AS (DELETE FROM carlos_cache_leases
      WHERE namespace = $1 AND key_hash = sha256($2) AND owner = $3 RETURNING 1)
    SELECT count(*) FROM gone
    """
  var namespace: String
  var key: Data
  var owner: UUID
  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 3)
    bindings.append(namespace)
    try bindings.append(key)
    bindings.append(owner)
    return bindings
  }
  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Int64.self) }
}

/// Reads one unexpired row of `Table` or, when there is none, takes the key's lease
/// as ``TakeLease`` does, in one round trip. One row comes back: `(value, stored_at,
/// expires_at, nil)` when a value was found, `(nil, nil, nil, takeover)` when the
/// lease was taken; none when another instance holds the lease.
struct SelectOrTakeLease<Table: CacheTable>: PostgresPreparedStatement {
  typealias Row = (Data?, Int64?, Int64?, Bool?)
  static var sql: String {
    """
    WITH found AS (
      SELECT value, stored_at, expires_at FROM \(Table.name)
      WHERE namespace = $1 AND key_hash = sha256($2) AND key = $2
        AND (expires_at IS NULL OR expires_at > $3)),
    taken AS (
      INSERT INTO carlos_cache_leases AS held (namespace, key_hash, owner, deadline)
      SELECT $1, sha256($2), $4, \(LeaseTable.now) + $5 WHERE NOT EXISTS (SELECT FROM found)
      ON CONFLICT (namespace, key_hash) DO UPDATE
        SET owner = EXCLUDED.owner, deadline = EXCLUDED.deadline
        WHERE held.deadline < \(LeaseTable.now)
      RETURNING xmax <> 0 AS takeover)
    SELECT value, stored_at, expires_at, NULL::boolean FROM found
    UNION ALL SELECT NULL, NULL, NULL, takeover FROM taken
    """
  }
  var namespace: String
  var key: Data
  var now: Int64
  var owner: UUID
  var lease: Int64
  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 5)
    bindings.append(namespace)
    try bindings.append(key)
    bindings.append(now)
    bindings.append(owner)
    bindings.append(lease)
    return bindings
  }
  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}
#endif
