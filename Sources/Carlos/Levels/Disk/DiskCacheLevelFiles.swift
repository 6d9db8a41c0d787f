/// How a ``DiskCacheLevel`` names the files it owns in its folder.
///
/// Cache files are `<stem>.cache`, the stem being 1 to 64 lowercase hex digits
/// (normally 32: the first 128 bits of the key's SHA-256). Temporary files are
/// `.tmp-<pid>-<random>-<counter>`. Every other file in the folder is ignored,
/// never counted, never removed.
package enum DiskCacheLevelFiles {
  /// The extension of cache files.
  package static let cacheSuffix = ".cache"
  /// The start of temporary files' names.
  package static let temporaryMarker = ".tmp-"
  /// A temporary file this old is abandoned even when its process seems alive
  /// (process ids are reused), in nanoseconds: one hour.
  static let abandonedAge: Int64 = 3_600 * 1_000_000_000

  /// Whether `stem` can name a cache file.
  package static func isValidStem(_ stem: String) -> Bool {
    let utf8 = stem.utf8
    guard (1...64).contains(utf8.count) else { return false }
    return utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }

  /// Whether `name` is a cache file's name.
  package static func isCacheFile(_ name: String) -> Bool {
    name.hasSuffix(cacheSuffix) && isValidStem(String(name.dropLast(cacheSuffix.count)))
  }

  /// Whether `name` is a temporary file's name.
  package static func isTemporaryFile(_ name: String) -> Bool {
    name.hasPrefix(temporaryMarker)
  }

  /// Whether the temporary file `name`, last modified at `modified`, was left
  /// behind by a process that died before renaming it (or is very old).
  static func isAbandoned(_ name: String, modified: Int64, now: Int64) -> Bool {
    if now - modified > abandonedAge { return true }
    let fields = name.dropFirst(temporaryMarker.count).split(separator: "-", maxSplits: 1)
    guard let first = fields.first, let process = Int32(first) else { return false }
    if process == DiskFile.currentProcess { return false }
    return !DiskFile.processExists(process)
  }
}
