#if Crypto
import Crypto
import Foundation

/// Authenticated encryption of cached `Data` values, bound to the cache key and a
/// namespace: compose it with a level that stores `Data` (`level =>> encryption`).
///
/// Each value is sealed with the ring's current key and a random nonce, in an
/// envelope that names the algorithm and the key (see ``CacheKeyRing``). The cache
/// key and the namespace are authenticated with it, so a value copied under another
/// key, or into another namespace's table, does not open. A value that does not
/// open (changed, truncated, moved, sealed with a key the ring lacks, or not an
/// envelope) is a miss, reported to ``onRejection``; it is never returned.
///
/// ```swift
/// let encryption = CacheEncryption(keys: ring, namespace: "sessions")
/// let sessions = DiskCacheLevel<String, Data>(path: folder) =>> encryption
/// ```
public struct CacheEncryption: Sendable {
  /// The authenticated encryption that seals values.
  public enum Algorithm: UInt8, Sendable, CaseIterable {
    /// AES-256 in Galois/Counter Mode.
    case aesGCM = 1
    /// ChaCha20 with Poly1305.
    case chaChaPoly = 2
  }

  /// The keys.
  public let keys: CacheKeyRing
  /// Bound to every value with its cache key: values of one namespace do not open in another.
  public let namespace: String
  /// The algorithm new values are sealed with (values sealed with the other still open).
  public let algorithm: Algorithm
  /// Told why a stored value was not opened (and so answered as a miss).
  public let onRejection: (@Sendable (CacheEncryptionError) -> Void)?

  /// Encrypts with `keys` in `namespace` by `algorithm`, telling `onRejection` why a
  /// stored value did not open.
  public init(
    keys: CacheKeyRing, namespace: String = "", algorithm: Algorithm = .aesGCM,
    onRejection: (@Sendable (CacheEncryptionError) -> Void)? = nil
  ) {
    self.keys = keys
    self.namespace = namespace
    self.algorithm = algorithm
    self.onRejection = onRejection
  }

  /// `value` sealed for the cache key `key`, as the bytes to store.
  public func seal(_ value: Data, forKey key: String) throws -> Data {
    let associated = EncryptedEnvelope(
      algorithm: algorithm.rawValue, keyID: keys.currentID, sealed: Data()
    ).associatedData(namespace: namespace, key: key)
    let sealed: Data
    switch algorithm {
    case .aesGCM:
      sealed = try AES.GCM.seal(value, using: keys.current, authenticating: associated).combined!
    case .chaChaPoly:
      sealed = try ChaChaPoly.seal(value, using: keys.current, authenticating: associated).combined
    }
    return EncryptedEnvelope(algorithm: algorithm.rawValue, keyID: keys.currentID, sealed: sealed)
      .bytes
  }

  /// The value in `stored`, sealed for the cache key `key`; throws why it does not open.
  public func open(_ stored: Data, forKey key: String) throws(CacheEncryptionError) -> Data {
    let envelope = try EncryptedEnvelope(parsing: stored)
    guard let secret = keys.key(of: envelope) else {
      throw .unknownKey(id: envelope.keyID)
    }
    let associated = envelope.associatedData(namespace: namespace, key: key)
    do {
      switch Algorithm(rawValue: envelope.algorithm) {
      case .aesGCM:
        return try AES.GCM.open(
          AES.GCM.SealedBox(combined: envelope.sealed), using: secret, authenticating: associated)
      case .chaChaPoly:
        return try ChaChaPoly.open(
          ChaChaPoly.SealedBox(combined: envelope.sealed), using: secret,
          authenticating: associated)
      case nil:
        throw CacheEncryptionError.unknownAlgorithm(envelope.algorithm)
      }
    } catch let error as CacheEncryptionError {
      throw error
    } catch {
      throw .authenticationFailed
    }
  }
}
#endif
