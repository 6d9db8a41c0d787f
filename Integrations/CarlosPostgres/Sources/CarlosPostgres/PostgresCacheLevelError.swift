#if Postgres
/// Why an operation of a ``PostgresCacheLevel`` failed.
public enum PostgresCacheLevelError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The operation did not finish within the level's `operationTimeout`
  /// (the server is down, unreachable or overloaded).
  case timedOut(operation: String, after: Duration)
  /// The server could not be reached, or the statement failed on it.
  case queryFailed(operation: String, reason: String)
  /// The server is known to be unreachable (an earlier operation found it so, and no
  /// probe has reached it since): the operation was not tried.
  case unavailable(operation: String)
  /// The value is larger than the level's `maximumValueSize`; nothing was stored.
  case valueTooLarge(size: Int, limit: Int)
  /// The key is larger (in UTF-8 bytes) than the level's `maximumKeySize`; nothing was stored.
  case keyTooLarge(size: Int, limit: Int)
  /// The namespace is empty, longer than 200 UTF-8 bytes or contains NUL.
  case invalidNamespace(String)
  /// A row read from the table did not have the expected shape.
  case invalidRow(String)
  /// The secret given to ``PostgresKeyHashing`` has fewer than `minimum` bytes.
  case secretTooShort(size: Int, minimum: Int)

  /// A human-readable description.
  public var description: String {
    switch self {
    case .timedOut(let operation, let after):
      return "PostgreSQL \(operation) did not finish within \(after)"
    case .queryFailed(let operation, let reason):
      return "PostgreSQL \(operation) failed: \(reason)"
    case .unavailable(let operation):
      return "PostgreSQL \(operation) not tried: the server is unreachable"
    case .valueTooLarge(let size, let limit):
      return
        "the value has \(size) bytes, more than the level's maximum of \(limit); nothing was stored"
    case .keyTooLarge(let size, let limit):
      return "the key has \(size) UTF-8 bytes, more than the level's maximum of \(limit)"
    case .invalidNamespace(let namespace):
      return
        "invalid namespace \(namespace.debugDescription): it must be 1 to 200 UTF-8 bytes without NUL"
    case .invalidRow(let reason):
      return "unexpected row in the cache table: \(reason)"
    case .secretTooShort(let size, let minimum):
      return "the key-hashing secret has \(size) bytes; it needs at least \(minimum)"
    }
  }
}
#endif
