#if Crypto
import Crypto
import Foundation

/// The keys that encrypt and decrypt cached values: one current key, which seals
/// every new value, and older keys, which still open the values they sealed, so
/// keys rotate without flushing the cache.
///
/// Each key has an id (1 to 255 bytes of UTF-8) that is written, in clear, in every
/// value it seals. Keys are 256-bit.
///
/// ```swift
/// let ring = try CacheKeyRing(current: "2026-11", key: SymmetricKey(size: .bits256),
///                             older: ["2026-10": previousKey])
/// ```
public struct CacheKeyRing: Sendable {
  /// The id of the key that seals new values.
  public let currentID: String
  /// Every key by its id, the current one included.
  private let keys: [String: SymmetricKey]
  /// The current key and the UTF-8 bytes of its id, found without a lookup.
  private let currentKey: SymmetricKey
  private let currentIDBytes: [UInt8]

  /// A ring that seals with `key`, named `current`, and also opens values sealed by
  /// `older` keys. Throws ``CacheEncryptionError/invalidKeyID(_:)`` for an empty id or
  /// one longer than 255 bytes, and ``CacheEncryptionError/invalidKeySize(bits:)`` for
  /// a key that is not 256-bit.
  public init(current: String, key: SymmetricKey, older: [String: SymmetricKey] = [:]) throws {
    var keys = older
    keys[current] = key
    for (id, key) in keys {
      guard (1...255).contains(id.utf8.count) else { throw CacheEncryptionError.invalidKeyID(id) }
      guard key.bitCount == 256 else {
        throw CacheEncryptionError.invalidKeySize(bits: key.bitCount)
      }
    }
    self.currentID = current
    self.keys = keys
    self.currentKey = key
    self.currentIDBytes = Array(current.utf8)
  }

  /// The key that seals new values.
  var current: SymmetricKey { currentKey }

  /// The key that sealed `envelope`, if the ring has it.
  func key(of envelope: EncryptedEnvelope) -> SymmetricKey? {
    if envelope.isSealed(byKeyID: currentIDBytes) { return currentKey }
    return keys[envelope.keyID]
  }
}
#endif
