import Foundation

@testable import Carlos

typealias Fuzzed = DiskRecord

/// The disk level's file format: ``DiskCacheFileFormat/inspect(_:)`` on a whole
/// file, and ``DiskCacheFileFormat/header(_:fileSize:)``,
/// ``DiskCacheFileFormat/keyRange(inHeader:)`` and
/// ``DiskCacheFileFormat/declaredSize(_:)`` on its first bytes.
///
/// Each input is checked twice: as it is, and with its checksum made right (when
/// its header is one the checksum can be computed for), so mutations reach the
/// checks behind the checksum. Invariants: the header-only readers agree with the
/// full check; an accepted file's key and value ranges tile the file after its
/// header; and the writer, given what was read, writes a file that reads back the
/// same (byte for byte when the reserved field is zero and the version is current).
enum DiskRecord: FuzzTarget {
  static func seeds() -> [[UInt8]] {
    CacheFiles.samples()
  }

  static func fuzz(_ input: UnsafeRawBufferPointer) {
    check(input)
    if let fixed = CacheFiles.withRightChecksum(Array(input)) {
      withExactCopy(of: fixed) { check($0) }
    }
  }

  static func check(_ file: UnsafeRawBufferPointer) {
    let head = UnsafeRawBufferPointer(rebasing: file.prefix(DiskCacheFileFormat.headerSize))
    let header = DiskCacheFileFormat.header(head, fileSize: UInt64(file.count))
    let keyRange = DiskCacheFileFormat.keyRange(inHeader: head)
    let declared = DiskCacheFileFormat.declaredSize(head)
    guard case .success(let entry) = DiskCacheFileFormat.inspect(file) else { return }

    let version: UInt16 = entry.storedAt == nil ? 1 : 2
    let headerSize =
      version == 1
      ? DiskCacheFileFormat.version1HeaderSize : DiskCacheFileFormat.headerSize
    require(
      header == .success(.init(version: version, expiresAt: entry.expiresAt)),
      "header(_:fileSize:) says \(header) of a file inspect accepts as \(entry)")
    require(
      keyRange == entry.key,
      "keyRange(inHeader:) says \(String(describing: keyRange)), inspect \(entry.key)")
    require(
      entry.key.lowerBound == headerSize && entry.key.upperBound == entry.value.lowerBound
        && entry.value.upperBound == file.count,
      "key \(entry.key) and value \(entry.value) do not tile a file of \(file.count) bytes")
    require(
      declared == UInt64(file.count),
      "declaredSize says \(String(describing: declared)) of \(file.count) bytes")
    require(
      entry.expiresAt != DiskCacheFileFormat.neverExpires, "the never sentinel read as a date")

    // Round trip: what the writer writes for what was read reads back the same.
    let key = Array(UnsafeRawBufferPointer(rebasing: file[entry.key]))
    let value = Array(UnsafeRawBufferPointer(rebasing: file[entry.value]))
    let rewritten = CacheFiles.file(
      key: key, value: value, encoding: entry.encoding, storedAt: entry.storedAt ?? 0,
      expiresAt: entry.expiresAt)
    let reread = withExactCopy(of: rewritten) { DiskCacheFileFormat.inspect($0) }
    let keyShift = DiskCacheFileFormat.headerSize - headerSize
    var expected = entry
    expected.key = (entry.key.lowerBound + keyShift)..<(entry.key.upperBound + keyShift)
    expected.value = (entry.value.lowerBound + keyShift)..<(entry.value.upperBound + keyShift)
    expected.storedAt = entry.storedAt ?? 0
    require(reread == .success(expected), "rewritten file reads back as \(reread), not \(expected)")
    let reserved = file.loadUnaligned(fromByteOffset: 12, as: UInt32.self)
    if version == 2, reserved == 0 {
      require(rewritten.elementsEqual(file), "the writer writes other bytes for an accepted file")
    }
  }
}
