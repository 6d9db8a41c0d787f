#if Postgres
import Foundation
import PostgresNIO

// The prepared statements of the cache levels, one type per statement and table.
// Every key, value, namespace and time is a bound parameter; the SQL text is a
// constant per table. Keys are `bytea` (so NUL and any byte survive), identified by
// their SHA-256 digest (`key_hash`, computed by the server) with the full key
// compared on every read, so keys of any length share one small btree index.

/// Reads one unexpired row: `(value, stored_at, expires_at)`.
struct SelectEntry<Table: CacheTable>: PostgresPreparedStatement {
  typealias Row = (Data, Int64, Int64?)
  static var sql: String {
    """
    SELECT value, stored_at, expires_at FROM \(Table.name)
    WHERE namespace = $1 AND key_hash = sha256($2) AND key = $2
      AND (expires_at IS NULL OR expires_at > $3)
    """
  }
  var namespace: String
  var key: Data
  var now: Int64
  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 3)
    bindings.append(namespace)
    try bindings.append(key)
    bindings.append(now)
    return bindings
  }
  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// The upsert of one row, without a notification.
struct UpsertEntry<Table: CacheTable>: PostgresPreparedStatement {
  typealias Row = Int64
  static var sql: String { EntryRow.upsert(into: Table.name) }
  var row: EntryRow
  func makeBindings() throws -> PostgresBindings { try row.bindings() }
  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Int64.self) }
}

/// The upsert of one row and, in the same transaction, its invalidation notice.
struct UpsertEntryNotifying<Table: CacheTable>: PostgresPreparedStatement {
  typealias Row = Int64
  static var sql: String {
    "WITH written AS (\(EntryRow.upsert(into: Table.name)))\n"
      + "SELECT (SELECT size FROM written), pg_notify($7, $8)"
  }
  var row: EntryRow
  var channel: String
  var payload: String
  func makeBindings() throws -> PostgresBindings {
    try row.bindings(notifying: channel, payload)
  }
  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Int64.self) }
}

/// Inserts one row unless the key holds an unexpired row (an expired one is replaced);
/// a row comes back only when it stored.
struct InsertEntryIfAbsent<Table: CacheTable>: PostgresPreparedStatement {
  typealias Row = Int64
  static var sql: String { EntryRow.upsert(into: Table.name, replacing: EntryRow.expiredAtStore) }
  var row: EntryRow
  func makeBindings() throws -> PostgresBindings { try row.bindings() }
  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Int64.self) }
}

/// ``InsertEntryIfAbsent`` and, in the same transaction and only when it stored, the
/// row's invalidation notice.
struct InsertEntryIfAbsentNotifying<Table: CacheTable>: PostgresPreparedStatement {
  typealias Row = Int64
  static var sql: String {
    "WITH written AS (\(EntryRow.upsert(into: Table.name, replacing: EntryRow.expiredAtStore)))\n"
      + "SELECT written.size, pg_notify($7, $8) FROM written"
  }
  var row: EntryRow
  var channel: String
  var payload: String
  func makeBindings() throws -> PostgresBindings {
    try row.bindings(notifying: channel, payload)
  }
  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Int64.self) }
}

/// Replaces the key's row only if it is still the one stored at `replacedStoredAt`
/// (`$7`): no row is inserted, and a row written since is left alone; a row comes
/// back only when it replaced.
struct ReplaceEntry<Table: CacheTable>: PostgresPreparedStatement {
  typealias Row = Int64
  static var sql: String { EntryRow.replace(in: Table.name) }
  var row: EntryRow
  var replacedStoredAt: Int64
  func makeBindings() throws -> PostgresBindings {
    var bindings = try row.bindings()
    bindings.append(replacedStoredAt)
    return bindings
  }
  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Int64.self) }
}

/// ``ReplaceEntry`` and, in the same transaction and only when it replaced, the row's
/// invalidation notice (`$8`, `$9`).
struct ReplaceEntryNotifying<Table: CacheTable>: PostgresPreparedStatement {
  typealias Row = Int64
  static var sql: String {
    "WITH written AS (\(EntryRow.replace(in: Table.name)))\n"
      + "SELECT written.size, pg_notify($8, $9) FROM written"
  }
  var row: EntryRow
  var replacedStoredAt: Int64
  var channel: String
  var payload: String
  func makeBindings() throws -> PostgresBindings {
    var bindings = try row.bindings()
    bindings.append(replacedStoredAt)
    bindings.append(channel)
    bindings.append(payload)
    return bindings
  }
  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Int64.self) }
}

/// The values of one row to write.
struct EntryRow: Sendable {
  var namespace: String
  var key: Data
  var value: Data
  var storedAt: Int64
  var expiresAt: Int64?

  func bindings() throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 8)
    bindings.append(namespace)
    try bindings.append(key)
    try bindings.append(value)
    bindings.append(Int64(key.count + value.count))
    bindings.append(storedAt)
    bindings.append(expiresAt)
    return bindings
  }

  /// ``bindings()`` followed by a notice's channel (`$7`) and payload (`$8`).
  func bindings(notifying channel: String, _ payload: String) throws -> PostgresBindings {
    var bindings = try bindings()
    bindings.append(channel)
    bindings.append(payload)
    return bindings
  }

  /// The condition under which an insert replaces the key's row: it has expired by the
  /// new row's `stored_at` (`$5`).
  static let expiredAtStore = "existing.expires_at IS NOT NULL AND existing.expires_at <= $5"

  /// The insert of the row bound as `$1`–`$6` into `table`, replacing the key's row
  /// always, or only where `condition` holds; returns the row's size when it wrote.
  static func upsert(into table: String, replacing condition: String? = nil) -> String {
    """
    INSERT INTO \(table) AS existing
      (namespace, key_hash, key, value, size, stored_at, expires_at)
    VALUES ($1, sha256($2), $2, $3, $4, $5, $6)
    ON CONFLICT (namespace, key_hash) DO UPDATE SET key = EXCLUDED.key, value = EXCLUDED.value,
      size = EXCLUDED.size, stored_at = EXCLUDED.stored_at, expires_at = EXCLUDED.expires_at
    \(condition.map { "WHERE \($0)" } ?? "")
    RETURNING size
    """
  }

  /// The update of the key's row bound as `$1`–`$6` in `table` where it was stored at
  /// `$7`; returns the row's size when it wrote.
  static func replace(in table: String) -> String {
    """
    UPDATE \(table) SET value = $3, size = $4, stored_at = $5, expires_at = $6
    WHERE namespace = $1 AND key_hash = sha256($2) AND key = $2 AND stored_at = $7
    RETURNING size
    """
  }
}

/// Deletes one key (0 or 1 rows deleted) and, when `channel` is not empty, sends
/// its invalidation notice in the same transaction.
struct DeleteEntry<Table: CacheTable>: PostgresPreparedStatement {
  typealias Row = Int64
  static var sql: String {
    """
    WITH gone AS (DELETE FROM \(Table.name)
      WHERE namespace = $1 AND key_hash = sha256($2) AND key = $2 RETURNING 1)
    SELECT (SELECT count(*) FROM gone), CASE WHEN $3 <> '' THEN pg_notify($3, $4) END
    """
  }
  var namespace: String
  var key: Data
  var channel: String
  var payload: String
  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 4)
    bindings.append(namespace)
    try bindings.append(key)
    bindings.append(channel)
    bindings.append(payload)
    return bindings
  }
  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Int64.self) }
}

/// Deletes every row of a namespace, sending a notice when `channel` is not empty.
struct DeleteNamespace<Table: CacheTable>: PostgresPreparedStatement {
  typealias Row = Int64
  static var sql: String {
    """
    WITH gone AS (DELETE FROM \(Table.name) WHERE namespace = $1 RETURNING 1)
    SELECT (SELECT count(*) FROM gone), CASE WHEN $2 <> '' THEN pg_notify($2, $3) END
    """
  }
  var namespace: String
  var channel: String
  var payload: String
  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 3)
    bindings.append(namespace)
    bindings.append(channel)
    bindings.append(payload)
    return bindings
  }
  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Int64.self) }
}

/// Deletes up to `limit` expired rows of a namespace: `(rows, bytes)` deleted.
struct DeleteExpiredBatch<Table: CacheTable>: PostgresPreparedStatement {
  typealias Row = (Int64, Int64)
  static var sql: String {
    """
    WITH doomed AS (SELECT key_hash FROM \(Table.name)
        WHERE namespace = $1 AND expires_at IS NOT NULL AND expires_at <= $2 LIMIT $3),
      gone AS (DELETE FROM \(Table.name) AS t USING doomed
        WHERE t.namespace = $1 AND t.key_hash = doomed.key_hash RETURNING t.size)
    SELECT count(*), coalesce(sum(size), 0)::bigint FROM gone
    """
  }
  var namespace: String
  var now: Int64
  var limit: Int64
  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 3)
    bindings.append(namespace)
    bindings.append(now)
    bindings.append(limit)
    return bindings
  }
  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// Deletes the `limit` oldest written rows of a namespace: `(rows, bytes)` deleted.
struct EvictOldestBatch<Table: CacheTable>: PostgresPreparedStatement {
  typealias Row = (Int64, Int64)
  static var sql: String {
    """
    WITH doomed AS (SELECT key_hash FROM \(Table.name)
        WHERE namespace = $1 ORDER BY stored_at LIMIT $2 FOR UPDATE SKIP LOCKED),
      gone AS (DELETE FROM \(Table.name) AS t USING doomed
        WHERE t.namespace = $1 AND t.key_hash = doomed.key_hash RETURNING t.size)
    SELECT count(*), coalesce(sum(size), 0)::bigint FROM gone
    """
  }
  var namespace: String
  var limit: Int64
  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 2)
    bindings.append(namespace)
    bindings.append(limit)
    return bindings
  }
  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// The bytes (keys and values) and rows a namespace holds.
struct NamespaceUsage<Table: CacheTable>: PostgresPreparedStatement {
  typealias Row = (Int64, Int64)
  static var sql: String {
    "SELECT coalesce(sum(size), 0)::bigint, count(*) FROM \(Table.name) WHERE namespace = $1"
  }
  var namespace: String
  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 1)
    bindings.append(namespace)
    return bindings
  }
  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}
#endif
