#if Postgres
import Foundation
import Logging
import PostgresNIO

/// The statements of one table, behind a protocol so a level can pick its table at
/// run time while every statement stays a constant string.
protocol CacheQueries: Sendable {
  func createTable(_ client: PostgresClient) async throws
  func select(_ client: PostgresClient, namespace: String, key: Data, now: Int64) async throws
    -> (value: Data, storedAt: Int64, expiresAt: Int64?)?
  func selectOrTakeLease(
    _ client: PostgresClient, namespace: String, key: Data, now: Int64, owner: UUID, lease: Int64
  ) async throws -> (value: Data?, storedAt: Int64?, expiresAt: Int64?, takenOver: Bool?)?
  func upsert(_ client: PostgresClient, _ row: EntryRow, notice: String?) async throws
  func insertIfAbsent(_ client: PostgresClient, _ row: EntryRow, notice: String?) async throws
    -> Bool
  func replace(
    _ client: PostgresClient, _ row: EntryRow, storedAt replaced: Int64, notice: String?
  ) async throws -> Bool
  func delete(_ client: PostgresClient, namespace: String, key: Data, notice: String?) async throws
  func clear(_ client: PostgresClient, namespace: String, notice: String?) async throws
  func deleteExpired(_ client: PostgresClient, namespace: String, now: Int64, limit: Int)
    async throws -> (rows: Int64, bytes: Int64)
  func evictOldest(_ client: PostgresClient, namespace: String, limit: Int) async throws
    -> (rows: Int64, bytes: Int64)
  func usage(_ client: PostgresClient, namespace: String) async throws -> (
    bytes: Int64, rows: Int64
  )
}

extension CacheQueries {
  /// Takes the lease on `key` for `owner`: nil when another instance holds it, else
  /// whether it was taken over from a holder past its deadline.
  func takeLease(
    _ client: PostgresClient, namespace: String, key: Data, owner: UUID, lease: Int64
  ) async throws -> Bool? {
    let query = TakeLease(namespace: namespace, key: key, owner: owner, lease: lease)
    var taken: Bool?
    for try await row in try await client.execute(query) where taken == nil { taken = row }
    return taken
  }

  /// Gives up `owner`'s lease on `key`.
  func releaseLease(_ client: PostgresClient, namespace: String, key: Data, owner: UUID)
    async throws
  {
    let query = ReleaseLease(namespace: namespace, key: key, owner: owner)
    for try await _ in try await client.execute(query) {}
  }
}

/// The statements of `Table`.
struct TableQueries<Table: CacheTable>: CacheQueries {
  /// The advisory lock that serialises table creation between processes.
  static var creationLock: Int64 { 0x6361_726C_6F73 }

  func createTable(_ client: PostgresClient) async throws {
    let silent = Logging.Logger(
      label: "carlos.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    // Tables that exist are left as they are: a role that may only read and write rows
    // then works with the default options too, and levels that start together do not
    // each take the creation lock (whose index statements block writers).
    let exists = PostgresQuery(
      unsafeSQL: "SELECT to_regclass('\(Table.name)') IS NOT NULL "
        + "AND to_regclass('\(LeaseTable.name)') IS NOT NULL")
    for try await found in try await client.query(exists, logger: silent).decode(Bool.self)
    where found {
      return
    }
    try await client.withTransaction(logger: silent) { connection in
      try await connection.query(
        "SELECT pg_advisory_xact_lock(\(Self.creationLock))", logger: silent)
      // Another level may have created them while this one waited for the lock.
      for try await found in try await connection.query(exists, logger: silent).decode(Bool.self)
      where found {
        return
      }
      for statement in Table.schema + LeaseTable.schema {
        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: silent)
      }
    }
  }

  func select(_ client: PostgresClient, namespace: String, key: Data, now: Int64) async throws
    -> (value: Data, storedAt: Int64, expiresAt: Int64?)?
  {
    let query = SelectEntry<Table>(namespace: namespace, key: key, now: now)
    guard let row = try await first(client.execute(query)) else { return nil }
    return (row.0, row.1, row.2)
  }

  func selectOrTakeLease(
    _ client: PostgresClient, namespace: String, key: Data, now: Int64, owner: UUID, lease: Int64
  ) async throws -> (value: Data?, storedAt: Int64?, expiresAt: Int64?, takenOver: Bool?)? {
    let query = SelectOrTakeLease<Table>(
      namespace: namespace, key: key, now: now, owner: owner, lease: lease)
    return try await first(client.execute(query))
  }

  func upsert(_ client: PostgresClient, _ row: EntryRow, notice: String?) async throws {
    if let notice {
      let query = UpsertEntryNotifying<Table>(
        row: row, channel: InvalidationNotice.channel, payload: notice)
      _ = try await first(client.execute(query))
    } else {
      _ = try await first(client.execute(UpsertEntry<Table>(row: row)))
    }
  }

  func insertIfAbsent(_ client: PostgresClient, _ row: EntryRow, notice: String?) async throws
    -> Bool
  {
    if let notice {
      let query = InsertEntryIfAbsentNotifying<Table>(
        row: row, channel: InvalidationNotice.channel, payload: notice)
      return try await first(client.execute(query)) != nil
    }
    return try await first(client.execute(InsertEntryIfAbsent<Table>(row: row))) != nil
  }

  func replace(
    _ client: PostgresClient, _ row: EntryRow, storedAt replaced: Int64, notice: String?
  ) async throws -> Bool {
    if let notice {
      let query = ReplaceEntryNotifying<Table>(
        row: row, replacedStoredAt: replaced, channel: InvalidationNotice.channel,
        payload: notice)
      return try await first(client.execute(query)) != nil
    }
    let query = ReplaceEntry<Table>(row: row, replacedStoredAt: replaced)
    return try await first(client.execute(query)) != nil
  }

  func delete(_ client: PostgresClient, namespace: String, key: Data, notice: String?) async throws
  {
    let query = DeleteEntry<Table>(
      namespace: namespace, key: key, channel: notice == nil ? "" : InvalidationNotice.channel,
      payload: notice ?? "")
    _ = try await first(client.execute(query))
  }

  func clear(_ client: PostgresClient, namespace: String, notice: String?) async throws {
    let query = DeleteNamespace<Table>(
      namespace: namespace, channel: notice == nil ? "" : InvalidationNotice.channel,
      payload: notice ?? "")
    _ = try await first(client.execute(query))
  }

  func deleteExpired(_ client: PostgresClient, namespace: String, now: Int64, limit: Int)
    async throws -> (rows: Int64, bytes: Int64)
  {
    let query = DeleteExpiredBatch<Table>(namespace: namespace, now: now, limit: Int64(limit))
    let row = try await first(client.execute(query))
    return (row?.0 ?? 0, row?.1 ?? 0)
  }

  func evictOldest(_ client: PostgresClient, namespace: String, limit: Int) async throws
    -> (rows: Int64, bytes: Int64)
  {
    let row = try await first(
      client.execute(EvictOldestBatch<Table>(namespace: namespace, limit: Int64(limit))))
    return (row?.0 ?? 0, row?.1 ?? 0)
  }

  func usage(_ client: PostgresClient, namespace: String) async throws -> (
    bytes: Int64, rows: Int64
  ) {
    let row = try await first(client.execute(NamespaceUsage<Table>(namespace: namespace)))
    return (row?.0 ?? 0, row?.1 ?? 0)
  }

  /// The first row of `rows`, reading the sequence to its end so the connection is released.
  private func first<Rows: AsyncSequence>(_ rows: Rows) async throws -> Rows.Element? {
    var result: Rows.Element?
    for try await row in rows where result == nil { result = row }
    return result
  }
}
#endif
