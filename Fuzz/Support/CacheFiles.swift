import Foundation

@testable import Carlos

/// Disk cache files made by the level's own writer, for seeds and round trips.
enum CacheFiles {
  /// A few files as the level writes them, and one in version 1's layout.
  static func samples() -> [[UInt8]] {
    let values:
      [(key: String, value: [UInt8], storedAt: Int64, expiresAt: Int64?, encoding: UInt16)] = [
        ("", [], 0, nil, DiskValueCoder<Data>.rawEncoding),
        ("k", [1, 2, 3], 1_700_000_000_000_000_000, nil, DiskValueCoder<Data>.rawEncoding),
        (
          "session", Array("{\"a\":[1,2,{\"b\":null}]}".utf8), 1_700_000_000_000_000_000,
          1_700_000_300_000_000_000, DiskValueCoder<Data>.jsonEncoding
        ),
        ("ключ\u{0}", Array(repeating: 0xAB, count: 300), -5, Int64.min, 7),
      ]
    var seeds = values.map {
      file(
        key: Array($0.key.utf8), value: $0.value, encoding: $0.encoding,
        storedAt: $0.storedAt, expiresAt: $0.expiresAt)
    }
    // A version-1 file (written before expiry existed), made from a current one.
    seeds.append(version1(of: seeds[1]))
    return seeds
  }

  /// A current-version file, as the level writes it.
  static func file(
    key: [UInt8], value: [UInt8], encoding: UInt16, storedAt: Int64, expiresAt: Int64?
  ) -> [UInt8] {
    value.withUnsafeBytes { valueBytes in
      DiskCacheFileFormat.prefix(
        key: key, encoding: encoding, storedAt: storedAt, expiresAt: expiresAt, value: valueBytes)
        + value
    }
  }

  /// `file` (current version) rewritten in version 1's layout.
  static func version1(of file: [UInt8]) -> [UInt8] {
    var old = Array(file[0..<24]) + Array(repeating: 0, count: 8) + Array(file[48...])
    old[4] = 1
    old[5] = 0
    return withRightChecksum(old) ?? old
  }

  /// `bytes` with the checksum the writer would give them, or nil when their
  /// header is not one whose checksum can be computed (unknown magic or version,
  /// or lengths that do not add up to the size).
  static func withRightChecksum(_ bytes: [UInt8]) -> [UInt8]? {
    guard bytes.count >= DiskCacheFileFormat.version1HeaderSize,
      bytes[0..<4].elementsEqual(Array("CRLS".utf8))
    else { return nil }
    let version = UInt16(bytes[4]) | UInt16(bytes[5]) << 8
    let size: Int
    switch version {
    case 2: size = DiskCacheFileFormat.headerSize
    case 1: size = DiskCacheFileFormat.version1HeaderSize
    default: return nil
    }
    guard bytes.count >= size else { return nil }
    let keyLength = bytes[8..<12].reversed().reduce(0) { $0 << 8 | Int($1) }
    guard size + keyLength <= bytes.count else { return nil }
    let checksumAt = size - 8
    let checksum = bytes.withUnsafeBytes { all in
      let header = XXHash64.hash(UnsafeRawBufferPointer(rebasing: all[0..<checksumAt]))
      let key = XXHash64.hash(
        UnsafeRawBufferPointer(rebasing: all[size..<(size + keyLength)]), seed: header)
      return XXHash64.hash(
        UnsafeRawBufferPointer(rebasing: all[(size + keyLength)...]), seed: key)
    }
    var fixed = bytes
    for index in 0..<8 {
      fixed[checksumAt + index] = UInt8(truncatingIfNeeded: checksum >> (8 * index))
    }
    return fixed
  }
}
