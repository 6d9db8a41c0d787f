import Foundation

/// The data every cache benchmark uses: 1,024 short String keys and 4 KiB Data values.
enum Fixtures {
  /// How many distinct keys the benchmarks cycle through.
  static let keyCount = 1_024

  /// Short keys: `"key-0"` … `"key-1023"`.
  static let keys: [String] = (0..<keyCount).map { "key-\($0)" }

  /// One 4 KiB value per key, each with different bytes.
  static let values: [Data] = (0..<keyCount).map { index in
    Data((0..<4_096).map { UInt8(truncatingIfNeeded: $0 &+ index) })
  }

  /// The key for iteration `i`: the benchmarks cycle through all keys.
  @inline(__always)
  static func key(_ i: Int) -> String { keys[i & (keyCount - 1)] }

  /// The value for iteration `i`.
  @inline(__always)
  static func value(_ i: Int) -> Data { values[i & (keyCount - 1)] }

  /// An empty folder under the temporary directory, the same for the same name
  /// (what an earlier run left there is removed).
  static func makeTemporaryFolder(_ name: String) -> String {
    let path = NSTemporaryDirectory() + "carlos-benchmarks/\(name)"
    do {
      if FileManager.default.fileExists(atPath: path) {
        try FileManager.default.removeItem(atPath: path)
      }
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      fatalError("cannot create \(path): \(error)")
    }
    return path
  }
}
