/// The layout of one ``DiskCacheLevel`` file: a fixed header, the full key, then
/// the encoded value.
///
/// Version 2, written by this code:
///
/// ```
/// offset  size  field
///      0     4  magic "CRLS"
///      4     2  format version (2)
///      6     2  value encoding (raw bytes or JSON, see DiskValueCoder)
///      8     4  key length in bytes
///     12     4  reserved, zero
///     16     8  value length in bytes
///     24     8  stored at: nanoseconds since 1970 (signed)
///     32     8  expires at: nanoseconds since 1970 (signed); Int64.max: never
///     40     8  XXH64 checksum of header[0..<40], key and value, chained
///     48     …  key (UTF-8), then value
/// ```
///
/// Version 1, written before values could expire, is still read; its values
/// never expire (and the file's modification time stands for "stored at"):
///
/// ```
/// offset  size  field
///      0     4  magic "CRLS"
///      4     2  format version (1)
///      6     2  value encoding
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
  /// The size of the fixed header of the version written (2).
  package static let headerSize = 48
  /// The size of the fixed header of version 1.
  package static let version1HeaderSize = 32
  /// "CRLS" read as a little-endian integer.
  static let magic: UInt32 = 0x534C_5243
  /// The version this code writes.
  static let version: UInt16 = 2
  /// The version written before expiry existed, still read.
  static let version1: UInt16 = 1
  /// The "expires at" of a value that never expires.
  package static let neverExpires = Int64.max

  /// What a valid file holds (ranges index into the file's bytes).
  package struct Entry: Equatable, Sendable {
    /// The value encoding recorded in the header.
    package var encoding: UInt16
    /// Where the key's UTF-8 bytes are.
    package var key: Range<Int>
    /// Where the encoded value is.
    package var value: Range<Int>
    /// When the value was stored, in nanoseconds since 1970; nil in version 1 files.
    package var storedAt: Int64?
    /// When the value expires, in nanoseconds since 1970; nil when it never does.
    package var expiresAt: Int64?
  }

  /// What the fixed header alone tells (its checksum covers the whole file, so
  /// it is not checked: see ``header(_:fileSize:)``).
  package struct Header: Equatable, Sendable {
    /// The format version.
    package var version: UInt16
    /// When the value expires, in nanoseconds since 1970; nil when it never does.
    package var expiresAt: Int64?

    package init(version: UInt16, expiresAt: Int64?) {
      self.version = version
      self.expiresAt = expiresAt
    }
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

  /// The header and key bytes that go before `value` in a file of the current
  /// version, for a value stored at `storedAt` that expires at `expiresAt`
  /// (nanoseconds since 1970; `nil`: never).
  package static func prefix(
    key: [UInt8],
    encoding: UInt16,
    storedAt: Int64 = 0,
    expiresAt: Int64? = nil,
    value: UnsafeRawBufferPointer
  ) -> [UInt8] {
    var bytes = [UInt8]()
    bytes.reserveCapacity(headerSize + key.count)
    append(magic, to: &bytes)
    append(version, to: &bytes)
    append(encoding, to: &bytes)
    append(UInt32(truncatingIfNeeded: key.count), to: &bytes)
    append(UInt32(0), to: &bytes)
    append(UInt64(value.count), to: &bytes)
    append(storedAt, to: &bytes)
    append(expiresAt ?? neverExpires, to: &bytes)
    let checksum = bytes.withUnsafeBytes { header in
      key.withUnsafeBytes { keyBytes in
        XXHash64.hash(value, seed: XXHash64.hash(keyBytes, seed: XXHash64.hash(header)))
      }
    }
    append(checksum, to: &bytes)
    bytes.append(contentsOf: key)
    return bytes
  }

  /// The size of the fixed header of `version`, or nil for an unknown version.
  private static func headerSize(of version: UInt16) -> Int? {
    switch version {
    case self.version: return headerSize
    case version1: return version1HeaderSize
    default: return nil
    }
  }

  /// Where the key is in a file whose first bytes are `header`; nil when they
  /// are not the start of a cache file.
  package static func keyRange(inHeader header: UnsafeRawBufferPointer) -> Range<Int>? {
    guard header.count >= version1HeaderSize, load(UInt32.self, header, 0) == magic,
      let size = headerSize(of: load(UInt16.self, header, 4))
    else { return nil }
    return size..<(size + Int(load(UInt32.self, header, 8)))
  }

  /// Checks the structure and checksum of a whole file and tells where its
  /// key and value are, and when the value was stored and expires.
  package static func inspect(_ file: UnsafeRawBufferPointer) -> Result<Entry, Corruption> {
    guard file.count >= version1HeaderSize else { return .failure(.tooShort) }
    guard load(UInt32.self, file, 0) == magic, let size = headerSize(of: load(UInt16.self, file, 4))
    else {
      return .failure(.notACacheFile)
    }
    guard file.count >= size else { return .failure(.tooShort) }
    let encoding = load(UInt16.self, file, 6)
    let keyLength = UInt64(load(UInt32.self, file, 8))
    let valueLength = load(UInt64.self, file, 16)
    let expectedSize = UInt64(size).addingReportingOverflow(keyLength)
    let totalSize = expectedSize.partialValue.addingReportingOverflow(valueLength)
    guard !expectedSize.overflow, !totalSize.overflow, totalSize.partialValue == UInt64(file.count)
    else {
      return .failure(.wrongSize)
    }
    let checksumOffset = size - 8
    let keyEnd = size + Int(keyLength)
    let keyRange = size..<keyEnd
    let valueRange = keyEnd..<file.count
    let headerSeed = XXHash64.hash(UnsafeRawBufferPointer(rebasing: file[0..<checksumOffset]))
    let keySeed = XXHash64.hash(UnsafeRawBufferPointer(rebasing: file[keyRange]), seed: headerSeed)
    let checksum = XXHash64.hash(UnsafeRawBufferPointer(rebasing: file[valueRange]), seed: keySeed)
    guard checksum == load(UInt64.self, file, checksumOffset) else {
      return .failure(.checksumMismatch)
    }
    var entry = Entry(encoding: encoding, key: keyRange, value: valueRange)
    if size == headerSize {
      entry.storedAt = load(Int64.self, file, 24)
      entry.expiresAt = expiry(load(Int64.self, file, 32))
    }
    return .success(entry)
  }

  /// Reads the fixed header at the start of a file of `fileSize` bytes, without
  /// the key and value, so its checksum cannot be checked.
  ///
  /// Enough to find expired files: a header that says "expired" belongs to an
  /// expired file or to a corrupt one, and both are to be removed; a corrupt
  /// header that says "valid" is caught by the full check of the next read.
  package static func header(_ bytes: UnsafeRawBufferPointer, fileSize: UInt64) -> Result<
    Header, Corruption
  > {
    guard bytes.count >= version1HeaderSize else { return .failure(.tooShort) }
    let version = load(UInt16.self, bytes, 4)
    guard load(UInt32.self, bytes, 0) == magic, let size = headerSize(of: version) else {
      return .failure(.notACacheFile)
    }
    guard bytes.count >= size else { return .failure(.tooShort) }
    let keyLength = UInt64(load(UInt32.self, bytes, 8))
    let valueLength = load(UInt64.self, bytes, 16)
    let expectedSize = UInt64(size).addingReportingOverflow(keyLength)
    let totalSize = expectedSize.partialValue.addingReportingOverflow(valueLength)
    guard !expectedSize.overflow, !totalSize.overflow, totalSize.partialValue == fileSize else {
      return .failure(.wrongSize)
    }
    let expiresAt = size == headerSize ? expiry(load(Int64.self, bytes, 32)) : nil
    return .success(Header(version: version, expiresAt: expiresAt))
  }

  /// The "expires at" field read back: nil for the sentinel of "never".
  @inline(__always)
  private static func expiry(_ field: Int64) -> Int64? {
    field == neverExpires ? nil : field
  }

  /// The size the whole file whose header is `header` (at least
  /// ``version1HeaderSize`` bytes) says it has, counting the header of its own
  /// version, or nil when it is not a header of this format.
  package static func declaredSize(_ header: UnsafeRawBufferPointer) -> UInt64? {
    guard header.count >= version1HeaderSize, load(UInt32.self, header, 0) == magic,
      let size = headerSize(of: load(UInt16.self, header, 4))
    else { return nil }
    let lengths = UInt64(load(UInt32.self, header, 8)).addingReportingOverflow(
      load(UInt64.self, header, 16))
    let total = lengths.partialValue.addingReportingOverflow(UInt64(size))
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
