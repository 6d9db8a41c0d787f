import Carlos
import Foundation
import Testing

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

/// A version-1 cache file (the format before expiry, whose header has no
/// times), assembled byte by byte as the code of that time wrote it.
func diskTestVersion1File(key: String, value: [UInt8], encoding: UInt16 = 1) -> [UInt8] {
  func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
  }
  let keyBytes = Array(key.utf8)
  var header = Array("CRLS".utf8) + littleEndian(UInt16(1)) + littleEndian(encoding)
  header += littleEndian(UInt32(keyBytes.count)) + littleEndian(UInt32(0))
  header += littleEndian(UInt64(value.count))
  let checksum = XXHash64.hash(value, seed: XXHash64.hash(keyBytes, seed: XXHash64.hash(header)))
  return header + littleEndian(checksum) + keyBytes + value
}

/// Holds one write of a level back, to look at the level while that write is in
/// flight: pass ``hook(_:)`` as the level's `failWrite` hook, call ``hold()``,
/// start a `set`, wait for ``waitUntilHeld()``, then ``release()`` it.
final class DiskWriteGate: Sendable {
  private struct State {
    var armed = false
    var held = false
    /// The errno the held write fails with once released (nil: it succeeds).
    var failure: Int32?
  }

  private let state = Lock(State())
  private let gate = DispatchSemaphore(value: 0)

  /// Makes the next write wait until ``release(failingWith:)``.
  func hold() {
    state.withLock { $0.armed = true }
  }

  /// Lets the held write go on, or fail with `errno` as if the disk refused it.
  func release(failingWith errno: Int32? = nil) {
    state.withLock { $0.failure = errno }
    gate.signal()
  }

  /// Waits (at most ``patience``: under ThreadSanitizer on a loaded machine the
  /// level's queue can start late) until a write is held; returns whether one is.
  /// The last look comes after the deadline, so a test that was kept from running
  /// past it still sees a write that is held by then.
  func waitUntilHeld() async -> Bool {
    let deadline = ContinuousClock.now + .seconds(patience)
    while true {
      let late = ContinuousClock.now >= deadline
      if state.withLock({ $0.held }) { return true }
      if late { return false }
      try? await Task.sleep(for: .milliseconds(1))
    }
  }

  /// The level's `failWrite` hook.
  func hook(_ path: String) -> Int32? {
    let holds = state.withLock { state in
      let holds = state.armed
      state.armed = false
      state.held = holds
      return holds
    }
    guard holds else { return nil }
    // Bounded, so a failing test cannot hang the suite; longer than any test
    // runs, so a slow test still decides when the write goes on.
    _ = gate.wait(timeout: .now() + longerThanAnyTest)
    return state.withLock { state in
      state.held = false
      return state.failure
    }
  }
}
