import Foundation

/// The stored form of an encrypted value:
///
///     "CCE" 0x01 | algorithm (1 byte) | key id length n (1 byte) | key id (n bytes)
///     | nonce (12) | ciphertext | tag (16)
///
/// The header (everything before the nonce) is authenticated with the ciphertext,
/// together with the namespace and the cache key (see ``associatedData(namespace:key:)``).
struct EncryptedEnvelope {
  /// The first four bytes of every envelope: "CCE" and the format's version.
  static let magic: [UInt8] = [0x43, 0x43, 0x45, 0x01]
  /// Bytes of nonce and tag around the ciphertext.
  static let overhead = 12 + 16

  /// The algorithm's code.
  let algorithm: UInt8
  /// The id of the key that sealed it.
  let keyID: String
  /// Nonce, ciphertext and tag, as the algorithms' combined form (a slice of the
  /// bytes read, not a copy).
  var sealed: Data

  /// The header bytes: magic, algorithm, key id.
  let header: Data

  /// The envelope's bytes.
  var bytes: Data { header + sealed }

  init(algorithm: UInt8, keyID: String, sealed: Data) {
    var header = Data(capacity: 6 + keyID.utf8.count)
    header.append(contentsOf: Self.magic)
    header.append(algorithm)
    header.append(UInt8(keyID.utf8.count))
    header.append(contentsOf: keyID.utf8)
    self.init(header: header, algorithm: algorithm, keyID: keyID, sealed: sealed)
  }

  private init(header: Data, algorithm: UInt8, keyID: String, sealed: Data) {
    self.header = header
    self.algorithm = algorithm
    self.keyID = keyID
    self.sealed = sealed
  }

  /// Reads `bytes`; throws ``CacheEncryptionError/notAnEnvelope`` when they are
  /// not one (too short for their header, nonce and tag, or another magic number).
  init(parsing bytes: Data) throws(CacheEncryptionError) {
    let start = bytes.startIndex
    guard bytes.count >= Self.magic.count + 2, bytes.starts(with: Self.magic) else {
      throw .notAnEnvelope
    }
    let idLength = Int(bytes[start + 5])
    let sealedStart = start + 6 + idLength
    guard idLength > 0, bytes.count >= 6 + idLength + Self.overhead,
      let keyID = String(validating: bytes[(start + 6)..<sealedStart], as: UTF8.self)
    else { throw .notAnEnvelope }
    self.init(
      header: bytes[start..<sealedStart], algorithm: bytes[start + 4], keyID: keyID,
      sealed: bytes[sealedStart...])
  }

  /// What is authenticated besides the ciphertext: the header, then the namespace
  /// and the cache key, each preceded by its length (so no two pairs give the same bytes).
  func associatedData(namespace: String, key: String) -> [UInt8] {
    var bytes = [UInt8]()
    bytes.reserveCapacity(header.count + 8 + namespace.utf8.count + key.utf8.count)
    bytes.append(contentsOf: header)
    for part in [namespace, key] {
      let length = UInt32(part.utf8.count)
      for shift: UInt32 in [24, 16, 8, 0] {
        bytes.append(UInt8(truncatingIfNeeded: length >> shift))
      }
      bytes.append(contentsOf: part.utf8)
    }
    return bytes
  }
}
