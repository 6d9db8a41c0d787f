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
    #expect(Array(bytes[entry.key]) == Array("the key".utf8))
    #expect(Array(bytes[entry.value]) == [1, 2, 3, 4, 5])
    #expect(bytes.count == DiskCacheFileFormat.headerSize + 7 + 5)
    #expect(Array(bytes.prefix(4)) == Array("CRLS".utf8))
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
}
