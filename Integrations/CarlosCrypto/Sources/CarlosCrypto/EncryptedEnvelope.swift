#if Crypto
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

  /// The envelope's bytes.
  let bytes: Data
  /// How many of them are the header: magic, algorithm, key id length, key id.
  private let headerLength: Int

  /// The algorithm's code.
  var algorithm: UInt8 { bytes[bytes.startIndex + 4] }
  /// The header bytes: magic, algorithm, key id.
  var header: Data { bytes.prefix(headerLength) }
  /// The UTF-8 bytes of the id of the key that sealed it (1 to 255).
  var keyIDBytes: Data { header.dropFirst(6) }
  /// The id of the key that sealed it.
  var keyID: String { String(decoding: keyIDBytes, as: UTF8.self) }
  /// Nonce, ciphertext and tag, as the algorithms' combined form (a slice of the
  /// bytes, not a copy).
  var sealed: Data { bytes.dropFirst(headerLength) }

  init(algorithm: UInt8, keyID: String, sealed: Data) {
    var bytes = Data(capacity: 6 + keyID.utf8.count + sealed.count)
    bytes.append(contentsOf: Self.magic)
    bytes.append(algorithm)
    bytes.append(UInt8(keyID.utf8.count))
    bytes.append(contentsOf: keyID.utf8)
    headerLength = bytes.count
    bytes.append(sealed)
    self.bytes = bytes
  }

  /// Reads `bytes`; throws ``CacheEncryptionError/notAnEnvelope`` when they are
  /// not one (too short for their header, nonce and tag, another magic number, or a
  /// key id that is empty or not UTF-8).
  init(parsing bytes: Data) throws(CacheEncryptionError) {
    let headerLength = bytes.withUnsafeBytes { raw -> Int? in
      guard raw.count >= Self.magic.count + 2, raw.prefix(4).elementsEqual(Self.magic) else {
        return nil
      }
      let idLength = Int(raw[5])
      guard idLength > 0, raw.count >= 6 + idLength + Self.overhead,
        String(validating: raw[6..<(6 + idLength)], as: UTF8.self) != nil
      else { return nil }
      return 6 + idLength
    }
    guard let headerLength else { throw .notAnEnvelope }
    self.bytes = bytes
    self.headerLength = headerLength
  }

  /// Whether the key id is the UTF-8 `id`.
  func isSealed(byKeyID id: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { raw in
      Int(raw[5]) == id.count && raw[6..<headerLength].elementsEqual(id)
    }
  }

  /// What is authenticated besides the ciphertext: the header, then the namespace
  /// and the cache key, each preceded by its length (so no two pairs give the same bytes).
  func associatedData(namespace: String, key: String) -> [UInt8] {
    let size = headerLength + 8 + namespace.utf8.count + key.utf8.count
    return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      let raw = UnsafeMutableRawBufferPointer(buffer)
      bytes.withUnsafeBytes {
        raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(headerLength)))
      }
      var offset = headerLength
      for var part in [namespace, key] {
        raw.storeBytes(of: UInt32(part.utf8.count).bigEndian, toByteOffset: offset, as: UInt32.self)
        offset += 4
        part.withUTF8 {
          UnsafeMutableRawBufferPointer(rebasing: raw[offset...]).copyMemory(
            from: UnsafeRawBufferPointer($0))
        }
        offset += part.utf8.count
      }
      count = size
    }
  }
}
#endif
