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
