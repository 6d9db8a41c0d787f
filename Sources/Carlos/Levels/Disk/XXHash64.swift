/// The XXH64 hash: a fast, non-cryptographic 64-bit checksum.
///
/// ``DiskCacheLevel`` stores it in every file's header so that a torn, truncated
/// or garbled file is detected on read. The result is the same on every
/// platform and in every process (unlike `Hasher`, which is randomly seeded).
package enum XXHash64 {
  private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
  private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
  private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
  private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

  /// The hash of `bytes`, starting from `seed`.
  package static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
    let count = bytes.count
    var offset = 0
    var hash: UInt64

    if count >= 32 {
      var lane1 = seed &+ prime1 &+ prime2
      var lane2 = seed &+ prime2
      var lane3 = seed
      var lane4 = seed &- prime1
      while offset + 32 <= count {
        lane1 = round(lane1, word64(bytes, offset))
        lane2 = round(lane2, word64(bytes, offset + 8))
        lane3 = round(lane3, word64(bytes, offset + 16))
        lane4 = round(lane4, word64(bytes, offset + 24))
        offset += 32
      }
      hash =
        rotateLeft(lane1, 1) &+ rotateLeft(lane2, 7) &+ rotateLeft(lane3, 12)
        &+ rotateLeft(lane4, 18)
      hash = mergeRound(hash, lane1)
      hash = mergeRound(hash, lane2)
      hash = mergeRound(hash, lane3)
      hash = mergeRound(hash, lane4)
    } else {
      hash = seed &+ prime5
    }

    hash = hash &+ UInt64(count)

    while offset + 8 <= count {
      hash ^= round(0, word64(bytes, offset))
      hash = rotateLeft(hash, 27) &* prime1 &+ prime4
      offset += 8
    }
    if offset + 4 <= count {
      hash ^= UInt64(word32(bytes, offset)) &* prime1
      hash = rotateLeft(hash, 23) &* prime2 &+ prime3
      offset += 4
    }
    while offset < count {
      hash ^= UInt64(bytes[offset]) &* prime5
      hash = rotateLeft(hash, 11) &* prime1
      offset += 1
    }

    hash ^= hash >> 33
    hash = hash &* prime2
    hash ^= hash >> 29
    hash = hash &* prime3
    hash ^= hash >> 32
    return hash
  }

  /// The hash of `bytes`, starting from `seed`.
  package static func hash(_ bytes: some Sequence<UInt8>, seed: UInt64 = 0) -> UInt64 {
    let direct = bytes.withContiguousStorageIfAvailable { buffer in
      hash(UnsafeRawBufferPointer(buffer), seed: seed)
    }
    if let direct { return direct }
    return Array(bytes).withUnsafeBytes { hash($0, seed: seed) }
  }

  @inline(__always)
  private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
    rotateLeft(accumulator &+ input &* prime2, 31) &* prime1
  }

  @inline(__always)
  private static func mergeRound(_ accumulator: UInt64, _ lane: UInt64) -> UInt64 {
    (accumulator ^ round(0, lane)) &* prime1 &+ prime4
  }

  @inline(__always)
  private static func rotateLeft(_ value: UInt64, _ amount: UInt64) -> UInt64 {
    (value << amount) | (value >> (64 - amount))
  }

  @inline(__always)
  private static func word64(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
    UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  @inline(__always)
  private static func word32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
    UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }
}
