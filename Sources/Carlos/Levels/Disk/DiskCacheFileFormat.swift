/// The layout of one ``DiskCacheLevel`` file: a fixed header, the full key, then
/// the encoded value.
///
/// ```
/// offset  size  field
///      0     4  magic "CRLS"
///      4     2  format version (1)
///      6     2  value encoding (raw bytes or JSON, see DiskValueCoder)
///      8     4  key length in bytes
///     12     4  reserved, zero
///     16     8  value length in bytes
///     24     8  XXH64 checksum of header[0..<24], key and value, chained
///     32     …  key (UTF-8), then value
/// ```
///
/// All integers are little-endian. A file whose size, magic, version or
/// checksum does not match is corrupt: torn, truncated, garbled or foreign.
package enum DiskCacheFileFormat {
  /// The size of the fixed header.
  package static let headerSize = 32
  /// "CRLS" read as a little-endian integer.
  static let magic: UInt32 = 0x534C_5243
  /// The only version this code reads and writes.
  static let version: UInt16 = 1

  /// What a valid file holds (ranges index into the file's bytes).
  package struct Entry: Equatable, Sendable {
    /// The value encoding recorded in the header.
    package var encoding: UInt16
    /// Where the key's UTF-8 bytes are.
    package var key: Range<Int>
    /// Where the encoded value is.
    package var value: Range<Int>
  }

  /// Why a file is not a valid cache file.
  package enum Corruption: Error, Equatable, Sendable {
    /// Shorter than the header.
    case tooShort
    /// Does not start with the magic number, or has an unknown version.
    case notACacheFile
    /// The lengths in the header do not add up to the file size.
    case wrongSize
    /// The checksum does not match the content.
    case checksumMismatch
  }

  /// The header and key bytes that go before `value` in a file.
  package static func prefix(key: [UInt8], encoding: UInt16, value: UnsafeRawBufferPointer)
    -> [UInt8]
  {
    var bytes = [UInt8]()
    bytes.reserveCapacity(headerSize + key.count)
    append(magic, to: &bytes)
    append(version, to: &bytes)
    append(encoding, to: &bytes)
    append(UInt32(truncatingIfNeeded: key.count), to: &bytes)
    append(UInt32(0), to: &bytes)
    append(UInt64(value.count), to: &bytes)
    let checksum = bytes.withUnsafeBytes { header in
      key.withUnsafeBytes { keyBytes in
        XXHash64.hash(value, seed: XXHash64.hash(keyBytes, seed: XXHash64.hash(header)))
      }
    }
    append(checksum, to: &bytes)
    bytes.append(contentsOf: key)
    return bytes
  }

  /// Checks the structure and checksum of a whole file and tells where its
  /// key and value are.
  package static func inspect(_ file: UnsafeRawBufferPointer) -> Result<Entry, Corruption> {
    guard file.count >= headerSize else { return .failure(.tooShort) }
    guard load(UInt32.self, file, 0) == magic, load(UInt16.self, file, 4) == version else {
      return .failure(.notACacheFile)
    }
    let encoding = load(UInt16.self, file, 6)
    let keyLength = UInt64(load(UInt32.self, file, 8))
    let valueLength = load(UInt64.self, file, 16)
    let expectedSize = UInt64(headerSize).addingReportingOverflow(keyLength)
    let totalSize = expectedSize.partialValue.addingReportingOverflow(valueLength)
    guard !expectedSize.overflow, !totalSize.overflow, totalSize.partialValue == UInt64(file.count)
    else {
      return .failure(.wrongSize)
    }
    let keyEnd = headerSize + Int(keyLength)
    let keyRange = headerSize..<keyEnd
    let valueRange = keyEnd..<file.count
    let headerSeed = XXHash64.hash(UnsafeRawBufferPointer(rebasing: file[0..<24]))
    let keySeed = XXHash64.hash(UnsafeRawBufferPointer(rebasing: file[keyRange]), seed: headerSeed)
    let checksum = XXHash64.hash(UnsafeRawBufferPointer(rebasing: file[valueRange]), seed: keySeed)
    guard checksum == load(UInt64.self, file, 24) else { return .failure(.checksumMismatch) }
    return .success(Entry(encoding: encoding, key: keyRange, value: valueRange))
  }

  /// The size of the whole file whose header is `header` (at least
  /// ``headerSize`` bytes) says it has, or nil when it is not a header of this format.
  package static func declaredSize(_ header: UnsafeRawBufferPointer) -> UInt64? {
    guard header.count >= headerSize, load(UInt32.self, header, 0) == magic else { return nil }
    let lengths = UInt64(load(UInt32.self, header, 8)).addingReportingOverflow(
      load(UInt64.self, header, 16))
    let total = lengths.partialValue.addingReportingOverflow(UInt64(headerSize))
    return lengths.overflow || total.overflow ? UInt64.max : total.partialValue
  }

  @inline(__always)
  private static func load<T: FixedWidthInteger>(
    _ type: T.Type, _ file: UnsafeRawBufferPointer, _ offset: Int
  ) -> T {
    T(littleEndian: file.loadUnaligned(fromByteOffset: offset, as: T.self))
  }

  private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
    var little = value.littleEndian
    withUnsafeBytes(of: &little) { bytes.append(contentsOf: $0) }
  }
}
