#if Postgres
import Crypto
import Foundation

/// Stores a ``PostgresCacheLevel``'s keys as HMAC-SHA256 digests made with a
/// secret, so the table, its indexes and the notifications never hold a key in
/// clear (keys are often e-mail addresses or user ids).
///
/// ```swift
/// let hashing = try PostgresKeyHashing(secret: secretBytes)  // 32 bytes or more
/// let shared = try PostgresCacheLevel<String>(
///   client: client, options: PostgresCacheOptions(namespace: "profiles", keyHashing: hashing))
/// ```
///
/// Every process that shares the namespace must use the same secret. A new secret
/// makes the old rows unreachable (misses, until expiry or eviction removes them).
/// The digest is of the key's canonical bytes (UTF-8 in Unicode NFC), so it
/// names the same key as the clear form does.
public struct PostgresKeyHashing: Sendable {
  /// The fewest bytes a secret may have.
  public static let minimumSecretSize = 32

  private let key: SymmetricKey

  /// Hashes keys with `secret`, which must have at least ``minimumSecretSize`` bytes.
  ///
  /// - Throws: ``PostgresCacheLevelError/secretTooShort(size:minimum:)``.
  public init(secret: some ContiguousBytes) throws {
    let key = SymmetricKey(data: secret)
    guard key.bitCount / 8 >= Self.minimumSecretSize else {
      throw PostgresCacheLevelError.secretTooShort(
        size: key.bitCount / 8, minimum: Self.minimumSecretSize)
    }
    self.key = key
  }

  /// The 32-byte digest stored in place of the key `bytes`.
  func digest(of bytes: Data) -> Data {
    Data(HMAC<SHA256>.authenticationCode(for: bytes, using: key))
  }
}
#endif
