/// Seams a ``DiskCacheLevel`` uses for naming files and writing them, so tests
/// can force digest collisions and disk failures.
package struct DiskCacheHooks: Sendable {
  /// Turns the key's UTF-8 bytes into a file name stem: 1 to 64 characters
  /// from `0-9a-f`; anything else makes the key invalid for the level.
  package var fileStem: @Sendable ([UInt8]) -> String
  /// Called before each file write with the path being written; returning an
  /// errno makes the write fail as if the system had returned it.
  package var failWrite: @Sendable (_ path: String) -> Int32?
  /// Called before each file read with the path being read; returning an errno makes
  /// the read fail as if the system had returned it.
  package var failRead: @Sendable (_ path: String) -> Int32?

  /// Creates hooks; by default files are named by SHA-256, and reads and writes are not
  /// interfered with.
  package init(
    fileStem: @escaping @Sendable ([UInt8]) -> String = DiskCacheHooks.sha256Stem,
    failWrite: @escaping @Sendable (_ path: String) -> Int32? = { _ in nil },
    failRead: @escaping @Sendable (_ path: String) -> Int32? = { _ in nil }
  ) {
    self.fileStem = fileStem
    self.failWrite = failWrite
    self.failRead = failRead
  }

  /// The hooks of a level in normal use.
  package static let standard = DiskCacheHooks()

  /// The first 128 bits of the key's SHA-256, as 32 lowercase hex digits.
  package static func sha256Stem(_ key: [UInt8]) -> String {
    hex(SHA256.digest(key).prefix(16))
  }

  /// Lowercase hex digits of `bytes`.
  package static func hex(_ bytes: some Collection<UInt8>) -> String {
    let digits: [UInt8] = Array("0123456789abcdef".utf8)
    var characters = [UInt8]()
    characters.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      characters.append(digits[Int(byte >> 4)])
      characters.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: characters, as: UTF8.self)
  }
}
