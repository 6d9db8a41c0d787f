#if Postgres
/// One of the tables the cache levels store rows in. Table names are fixed, so
/// every statement is a constant string (no SQL is ever assembled at run time).
protocol CacheTable: Sendable {
  /// The table's name.
  static var name: String { get }
  /// The `CREATE TABLE` keyword list (`UNLOGGED TABLE` or `TABLE`).
  static var kind: String { get }
}

/// The default, `UNLOGGED` table.
enum UnloggedCacheTable: CacheTable {
  static var name: String { "carlos_cache" }
  static var kind: String { "UNLOGGED TABLE" }
}

/// The crash-safe (logged) table.
enum LoggedCacheTable: CacheTable {
  static var name: String { "carlos_cache_logged" }
  static var kind: String { "TABLE" }
}

extension CacheTable {
  /// The statements that create the table and its indexes if they are missing.
  static var schema: [String] {
    [
      """
      CREATE \(kind) IF NOT EXISTS \(name) (
        namespace text NOT NULL,
        key_hash bytea NOT NULL,
        key bytea NOT NULL,
        value bytea NOT NULL,
        size bigint NOT NULL,
        stored_at bigint NOT NULL,
        expires_at bigint,
        PRIMARY KEY (namespace, key_hash))
      """,
      "CREATE INDEX IF NOT EXISTS \(name)_age ON \(name) (namespace, stored_at)",
      """
      CREATE INDEX IF NOT EXISTS \(name)_expiry ON \(name) (namespace, expires_at)
      WHERE expires_at IS NOT NULL
      """,
    ]
  }
}
#endif
