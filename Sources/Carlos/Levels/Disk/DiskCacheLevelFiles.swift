#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a ``DiskCacheLevel`` names the files it owns in its folder, and their modes.
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
  /// The mode of every file the level writes: read and write for the owner only.
  static let fileMode: mode_t = 0o600
  /// The mode of a folder the level creates: the owner only.
  static let folderMode: Int = 0o700

  /// Why the folder at `path` may not hold a level's files: its group or everyone
  /// may write it, or another user owns it. `nil` when it is safe, or missing.
  static func unsafeFolder(_ path: String) -> DiskCacheLevelError? {
    SharedPathCheck.unsafe(path).map { .unsafeFolder(path: path, mode: $0.mode, owner: $0.owner) }
  }

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

  /// The name of the folder, in the user's cache folder, that holds the default
  /// folders of `program`'s levels: the program's name with every character other
  /// than ASCII letters, digits, `-`, `_` and `.` replaced by `_`, without leading
  /// dots, at most 100 characters; `program` when nothing is left.
  static func folderName(forProgram program: String) -> String {
    let allowed = program.unicodeScalars.prefix(100).map { scalar -> Character in
      let ascii = scalar.isASCII ? UInt8(scalar.value) : 0
      let keep =
        (0x30...0x39).contains(ascii) || (0x41...0x5A).contains(ascii)
        || (0x61...0x7A).contains(ascii) || ascii == 0x2D || ascii == 0x5F || ascii == 0x2E
      return keep ? Character(scalar) : "_"
    }
    let name = String(allowed.drop { $0 == "." })
    return name.isEmpty ? "program" : name
  }
}
