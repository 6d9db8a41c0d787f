#if Postgres
import Foundation

/// What a write tells other processes through PostgreSQL's `NOTIFY`: that one key,
/// or every key, of a namespace changed.
///
/// The payload is `v1 <sender> <k|r|n> <namespace base64> [<key base64>]` separated by
/// tabs, so any namespace and key (NUL included) fit in PostgreSQL's text payload
/// (`r`: a key refreshed ahead of its expiry, see ``isRefresh``).
/// A key whose notice would exceed the 8,000-byte payload limit is sent as a
/// namespace-wide notice instead: receivers drop everything of that namespace.
public struct InvalidationNotice: Sendable, Hashable {
  /// What changed.
  public enum Scope: Sendable, Hashable {
    /// The value of one key (the key's UTF-8 bytes).
    case key(Data)
    /// Every key of the namespace (a clear, or a key too long to send).
    case namespace
  }

  /// The PostgreSQL channel every cache level notifies and every listener listens on.
  public static let channel = "carlos_cache_invalidation"
  /// The longest payload sent; PostgreSQL accepts up to 7,999 bytes.
  static let maximumPayload = 7_900

  /// The level instance that made the change (so it can ignore its own notices).
  public var sender: UUID
  /// The namespace of the level that changed.
  public var namespace: String
  /// What changed.
  public var scope: Scope
  /// Whether the key's value was reloaded ahead of its expiry (by a
  /// ``PostgresSingleFlight``) rather than written: the previous value stays valid
  /// until its own expiry, so a holder may keep serving it until it has the new one.
  public var isRefresh: Bool

  /// Creates a notice; `isRefresh` only applies to a key's notice.
  public init(sender: UUID, namespace: String, scope: Scope, isRefresh: Bool = false) {
    self.sender = sender
    self.namespace = namespace
    self.scope = scope
    self.isRefresh = isRefresh && scope != .namespace
  }

  /// The text sent as the notification's payload.
  public var payload: String {
    let head = "v1\t\(sender.uuidString)\t"
    let space = Data(namespace.utf8).base64EncodedString()
    if case .key(let key) = scope {
      let text = head + (isRefresh ? "r\t" : "k\t") + space + "\t" + key.base64EncodedString()
      if text.utf8.count <= Self.maximumPayload { return text }
    }
    return head + "n\t" + space
  }

  /// Reads a payload; `nil` when it is not a notice of this format.
  public init?(payload: String) {
    let parts = payload.split(separator: "\t", omittingEmptySubsequences: false)
    guard parts.count >= 4, parts[0] == "v1", let sender = UUID(uuidString: String(parts[1])),
      let spaceData = Data(base64Encoded: String(parts[3])),
      let namespace = String(data: spaceData, encoding: .utf8)
    else { return nil }
    switch parts[2] {
    case "k", "r":
      guard parts.count == 5, let key = Data(base64Encoded: String(parts[4])) else { return nil }
      self.init(sender: sender, namespace: namespace, scope: .key(key), isRefresh: parts[2] == "r")
    case "n":
      guard parts.count == 4 else { return nil }
      self.init(sender: sender, namespace: namespace, scope: .namespace)
    default:
      return nil
    }
  }
}
#endif
