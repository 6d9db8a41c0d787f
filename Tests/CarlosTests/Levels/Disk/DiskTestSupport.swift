import Foundation
import Testing

import Carlos

/// A fresh folder under the temporary directory, removed by `remove()`.
struct DiskTestFolder {
  let url: URL

  init() {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("carlos-disk-tests-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  var path: String { url.path }

  /// A path inside the folder.
  func child(_ name: String) -> String {
    url.appendingPathComponent(name).path
  }

  /// The names of the cache files in `folder`.
  static func cacheFiles(in folder: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { DiskCacheLevelFiles.isCacheFile($0) }.sorted()
  }

  /// The total size of the cache files in `folder`.
  static func cacheBytes(in folder: String) -> UInt64 {
    cacheFiles(in: folder).reduce(0) { total, name in
      let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)
      return total + ((attributes?[.size] as? NSNumber)?.uint64Value ?? 0)
    }
  }

  func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}

/// `count` bytes derived from `seed`, different for every seed.
func diskTestBytes(_ count: Int, seed: UInt64) -> Data {
  var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
  var bytes = [UInt8](repeating: 0, count: count)
  for index in 0..<count {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    bytes[index] = UInt8(truncatingIfNeeded: state)
  }
  return Data(bytes)
}

/// The error the future fails with, or nil when it succeeds.
func diskTestFailure<T: Sendable>(_ future: Future<T>) async -> (any Error)? {
  do {
    _ = try await future.value
    return nil
  } catch {
    return error
  }
}

/// The size a file takes for `key` and a value of `valueBytes` bytes.
func diskTestFileSize(key: String, valueBytes: Int) -> UInt64 {
  UInt64(DiskCacheFileFormat.headerSize + key.utf8.count + valueBytes)
}
