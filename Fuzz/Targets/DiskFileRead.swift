import Foundation

@testable import Carlos

typealias Fuzzed = DiskFileRead

/// How the disk level reads a file it finds in its folder: the input is written to
/// a file, then read with ``DiskFile/read(_:limits:)`` (the level's limits: a
/// capacity, and a header whose declared size a file over 64 KiB must match before
/// the rest is read) and ``DiskFile/readHead(_:count:)`` (the header, as the index
/// and `removeExpired` read it; then up to the end of the key the header declares,
/// as the level reads it to name a removed file's key), and what they read is
/// inspected as a cache file.
///
/// The first input byte picks the capacity (a multiple of 4 KiB, or none), the
/// rest is the file. Invariants: a read returns exactly the file's bytes, or is
/// rejected only when the file is over capacity or (over 64 KiB) its header
/// declares another size, and never when it is a valid cache file within capacity;
/// a head is the file's first bytes and its size, whatever count is asked for
/// (within the 2 GB libFuzzer allows); and the header read from the head agrees
/// with the full inspection.
enum DiskFileRead: FuzzTarget {
  /// The file each input is written to, one per process.
  static let path: String = {
    let folder = FileManager.default.temporaryDirectory.path
    return "\(folder)/carlos-fuzz-disk-file-\(getpid()).cache"
  }()

  static func seeds() -> [[UInt8]] {
    // Over 64 KiB: the header is read first and its declared size checked.
    let big = CacheFiles.file(
      key: Array("big".utf8), value: Array(repeating: 7, count: 70_000),
      encoding: DiskValueCoder<Data>.rawEncoding, storedAt: 1, expiresAt: nil)
    return CacheFiles.samples().map { [0] + $0 } + [
      [0] + big, [0] + CacheFiles.version1(of: big), [3] + Array(repeating: 0, count: 10_000),
    ]
  }

  static func fuzz(_ input: UnsafeRawBufferPointer) {
    guard let selector = input.first else { return }
    let bytes = UnsafeRawBufferPointer(rebasing: input.dropFirst())
    let capacity = selector == 0 ? UInt64.max : UInt64(selector) * 4096
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
      fatalError("cannot write \(path)")
    }
    defer { unlink(path) }

    let limits = DiskFile.ReadLimits(
      maximumSize: capacity, headerSize: DiskCacheFileFormat.headerSize,
      declaredSize: DiskCacheFileFormat.declaredSize)
    switch DiskFile.read(path, limits: limits) {
    case .success(let contents):
      require(
        contents.view.elementsEqual(bytes),
        "read \(contents.view.count) bytes, not the file's \(bytes.count)")
      _ = DiskCacheFileFormat.inspect(contents.view)
    case .failure(.rejected(let reason, _)):
      let head = UnsafeRawBufferPointer(rebasing: bytes.prefix(DiskCacheFileFormat.headerSize))
      let declared = DiskCacheFileFormat.declaredSize(head)
      let overCapacity = UInt64(bytes.count) > capacity
      let misdeclared =
        bytes.count > DiskFile.checkedReadThreshold && declared != nil
        && declared != UInt64(bytes.count)
      require(overCapacity || misdeclared, "a file of \(bytes.count) bytes rejected: \(reason)")
      // A valid cache file within capacity is always read.
      let valid = DiskCacheFileFormat.inspect(bytes)
      require(
        overCapacity || (try? valid.get()) == nil,
        "a valid cache file of \(bytes.count) bytes rejected: \(reason)")
    case .failure(let failure):
      fatalError("reading a plain file failed: \(failure)")
    }

    guard let head = DiskFile.readHead(path, count: DiskCacheFileFormat.headerSize) else {
      fatalError("readHead found no file")
    }
    require(
      head.size == UInt64(bytes.count), "readHead says \(head.size) bytes, not \(bytes.count)")
    require(
      head.bytes.elementsEqual(bytes.prefix(DiskCacheFileFormat.headerSize)),
      "readHead read other bytes")
    // What the level reads to name the key of a file it removes, for its observers.
    if let keyRange = withExactCopy(of: head.bytes, { DiskCacheFileFormat.keyRange(inHeader: $0) }),
      let whole = DiskFile.readHead(path, count: keyRange.upperBound)
    {
      require(
        whole.bytes.elementsEqual(bytes.prefix(keyRange.upperBound)),
        "readHead up to the key's end read other bytes")
    }
    let header = withExactCopy(of: head.bytes) {
      DiskCacheFileFormat.header($0, fileSize: head.size)
    }
    if case .success(let entry) = DiskCacheFileFormat.inspect(bytes) {
      require(
        header
          == .success(.init(version: entry.storedAt == nil ? 1 : 2, expiresAt: entry.expiresAt)),
        "the header read from the head (\(header)) disagrees with the whole file (\(entry))")
    }
  }
}
