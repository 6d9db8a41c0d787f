#if Crypto
/// Why a key ring could not be made, or why a stored value was not opened.
///
/// A value that is not opened is never returned: the encrypted level answers a miss
/// and reports the reason to its ``CacheEncryption/onRejection`` handler.
public enum CacheEncryptionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A key id that is empty or longer than 255 bytes of UTF-8.
  case invalidKeyID(String)
  /// A key that is not 256-bit.
  case invalidKeySize(bits: Int)
  /// The stored bytes are not an envelope of this format (too short, another
  /// magic number or version): never sealed by this package, or truncated.
  case notAnEnvelope
  /// The envelope names an algorithm this version does not know.
  case unknownAlgorithm(UInt8)
  /// The envelope was sealed with a key the ring does not have.
  case unknownKey(id: String)
  /// The envelope did not authenticate: changed, truncated, or sealed for another
  /// cache key or namespace.
  case authenticationFailed

  /// What went wrong, without the value or the cache key.
  public var description: String {
    switch self {
    case .invalidKeyID(let id):
      "A key id must be 1 to 255 bytes of UTF-8; this one has \(id.utf8.count)."
    case .invalidKeySize(let bits): "A key must be 256-bit; this one is \(bits)-bit."
    case .notAnEnvelope: "The stored value is not an encrypted envelope (or is truncated)."
    case .unknownAlgorithm(let code): "The envelope names an unknown algorithm (\(code))."
    case .unknownKey(let id): "The envelope was sealed with key \"\(id)\", which the ring lacks."
    case .authenticationFailed:
      "The envelope did not authenticate: changed, or sealed for another key or namespace."
    }
  }
}
#endif
