import Carlos
import Foundation
import Testing

@Suite("DiskCacheFileFormat")
struct DiskCacheFileFormatTests {
  private func file(key: String, value: [UInt8], encoding: UInt16 = 1) -> [UInt8] {
    value.withUnsafeBytes { body in
      DiskCacheFileFormat.prefix(key: Array(key.utf8), encoding: encoding, value: body) + value
    }
  }

  @Test("A written file inspects back to its key, encoding and value")
  func roundTrip() throws {
    let bytes = file(key: "the key", value: [1, 2, 3, 4, 5], encoding: 2)
    let entry = try bytes.withUnsafeBytes { try DiskCacheFileFormat.inspect($0).get() }
    #expect(entry.encoding == 2)
    #expect([UInt8](bytes[entry.key]) == [UInt8]("the key".utf8))
    #expect([UInt8](bytes[entry.value]) == [1, 2, 3, 4, 5] as [UInt8])
    #expect(bytes.count == DiskCacheFileFormat.headerSize + 7 + 5)
    #expect([UInt8](bytes.prefix(4)) == [UInt8]("CRLS".utf8))
  }

  @Test("Every single-bit change anywhere in a file is detected")
  func everyBitFlip() {
    let original = file(key: "k€y", value: Array(0..<40))
    for index in original.indices {
      for bit in 0..<8 {
        var bytes = original
        bytes[index] ^= UInt8(1 << bit)
        let result = bytes.withUnsafeBytes { DiskCacheFileFormat.inspect($0) }
        if case .success = result {
          Issue.record("flip of bit \(bit) in byte \(index) went unnoticed")
        }
      }
    }
  }

  @Test("Every truncation and extension is detected")
  func truncations() {
    let original = file(key: "key", value: Array(repeating: 9, count: 50))
    for length in 0..<original.count {
      let result = Array(original.prefix(length)).withUnsafeBytes {
        DiskCacheFileFormat.inspect($0)
      }
      if case .success = result { Issue.record("truncation to \(length) bytes went unnoticed") }
    }
    let longer = (original + [0]).withUnsafeBytes { DiskCacheFileFormat.inspect($0) }
    #expect(longer == .failure(.wrongSize))
  }

  @Test("Lengths that overflow are rejected, not trusted")
  func overflowingLengths() {
    var bytes = file(key: "k", value: [1])
    for index in 16..<24 { bytes[index] = 0xFF }
    let result = bytes.withUnsafeBytes { DiskCacheFileFormat.inspect($0) }
    #expect(result == .failure(.wrongSize))
  }

  @Test("Short and foreign files are named as such")
  func foreign() {
    #expect([UInt8]().withUnsafeBytes { DiskCacheFileFormat.inspect($0) } == .failure(.tooShort))
    let text = Array(String(repeating: "plain text ", count: 10).utf8)
    #expect(text.withUnsafeBytes { DiskCacheFileFormat.inspect($0) } == .failure(.notACacheFile))
  }

  // MARK: - Version 2: expiry in the header

  @Test("Version 2 keeps when the value was stored and when it expires, checksummed")
  func version2Times() throws {
    let value: [UInt8] = [7, 8, 9]
    let bytes = value.withUnsafeBytes { body in
      DiskCacheFileFormat.prefix(
        key: [UInt8]("k".utf8), encoding: 1, storedAt: 1_700_000_000_000_000_000,
        expiresAt: 1_700_000_060_000_000_000, value: body) + value
    }
    let entry = try bytes.withUnsafeBytes { try DiskCacheFileFormat.inspect($0).get() }
    #expect(bytes[4] == 2 && bytes[5] == 0)
    #expect(entry.storedAt == 1_700_000_000_000_000_000)
    #expect(entry.expiresAt == 1_700_000_060_000_000_000)
    #expect([UInt8](bytes[entry.value]) == value)
    #expect(bytes.count == 48 + 1 + 3)
    // Changing the expiry without the checksum is corruption, not a new deadline.
    var tampered = bytes
    tampered[32] ^= 0x01
    #expect(
      tampered.withUnsafeBytes { DiskCacheFileFormat.inspect($0) } == .failure(.checksumMismatch))
  }

  @Test("No expiry is written as the 'never' sentinel and reads back as nil")
  func neverSentinel() throws {
    let bytes = file(key: "k", value: [1])
    let entry = try bytes.withUnsafeBytes { try DiskCacheFileFormat.inspect($0).get() }
    #expect(entry.expiresAt == nil)
    let never: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]
    #expect([UInt8](bytes[32..<40]) == never)
  }

  @Test("A version-1 file still reads: never expiring, no stored time, not corrupt")
  func version1StillReads() throws {
    let bytes = diskTestVersion1File(key: "old key", value: [4, 5, 6], encoding: 2)
    #expect(bytes.count == DiskCacheFileFormat.version1HeaderSize + 7 + 3)
    let entry = try bytes.withUnsafeBytes { try DiskCacheFileFormat.inspect($0).get() }
    #expect(entry.encoding == 2)
    #expect([UInt8](bytes[entry.key]) == [UInt8]("old key".utf8))
    #expect([UInt8](bytes[entry.value]) == [4, 5, 6] as [UInt8])
    #expect(entry.storedAt == nil)
    #expect(entry.expiresAt == nil)
    let header = bytes.prefix(48).withUnsafeBytes {
      DiskCacheFileFormat.header($0, fileSize: UInt64(bytes.count))
    }
    #expect(header == .success(DiskCacheFileFormat.Header(version: 1, expiresAt: nil)))
  }

  @Test("The size a header declares counts the header of its own version")
  func declaredSizeOfEachVersion() {
    let value = [UInt8](repeating: 9, count: 100)
    let current = value.withUnsafeBytes {
      DiskCacheFileFormat.prefix(key: Array("key".utf8), encoding: 1, value: $0) + value
    }
    // Found by the disk-file fuzz target: a version-1 header was counted as 48 bytes,
    // so every version-1 file over 64 KiB was rejected unread, as misdeclared.
    let old = diskTestVersion1File(key: "key", value: value)
    for file in [current, old] {
      let declared = file.prefix(DiskCacheFileFormat.headerSize).withUnsafeBytes {
        DiskCacheFileFormat.declaredSize($0)
      }
      #expect(declared == UInt64(file.count))
    }
  }

  @Test("Every single-bit change of a version-1 file is detected too")
  func version1BitFlips() {
    let original = diskTestVersion1File(key: "k", value: Array(0..<20))
    for index in original.indices {
      for bit in 0..<8 {
        var bytes = original
        bytes[index] ^= UInt8(1 << bit)
        if case .success = bytes.withUnsafeBytes({ DiskCacheFileFormat.inspect($0) }) {
          Issue.record("flip of bit \(bit) in byte \(index) of a v1 file went unnoticed")
        }
      }
    }
  }

  @Test("An unknown version is not a cache file")
  func unknownVersion() {
    for version: UInt8 in [0, 3, 255] {
      var bytes = file(key: "k", value: [1])
      bytes[4] = version
      #expect(bytes.withUnsafeBytes { DiskCacheFileFormat.inspect($0) } == .failure(.notACacheFile))
    }
  }

  @Test("The header alone tells the expiry, and rejects short, foreign and mis-sized files")
  func headerOnly() {
    let value: [UInt8] = [1, 2, 3, 4]
    let bytes = value.withUnsafeBytes { body in
      DiskCacheFileFormat.prefix(
        key: [UInt8]("key".utf8), encoding: 1, storedAt: 5, expiresAt: 99, value: body) + value
    }
    let size = UInt64(bytes.count)
    func header(_ head: [UInt8], _ fileSize: UInt64) -> Result<
      DiskCacheFileFormat.Header, DiskCacheFileFormat.Corruption
    > {
      head.withUnsafeBytes { DiskCacheFileFormat.header($0, fileSize: fileSize) }
    }
    #expect(header([UInt8](bytes.prefix(48)), size) == .success(.init(version: 2, expiresAt: 99)))
    #expect(header([UInt8](bytes.prefix(40)), size) == .failure(.tooShort))
    #expect(header([UInt8](bytes.prefix(10)), size) == .failure(.tooShort))
    #expect(header([UInt8](bytes.prefix(48)), size + 1) == .failure(.wrongSize))
    #expect(header(Array(repeating: 0x41, count: 48), size) == .failure(.notACacheFile))
  }
}
