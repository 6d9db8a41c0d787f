import Foundation

// libFuzzer's entry points, handed to the target's `Fuzzed` type.

/// Called once before fuzzing. With `CARLOS_FUZZ_WRITE_SEEDS=<folder>` in the
/// environment, writes the target's seeds there (one file each) and exits.
@_cdecl("LLVMFuzzerInitialize")
func fuzzerInitialize(
  _ argc: UnsafeMutablePointer<Int32>?,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> Int32 {
  guard let folder = ProcessInfo.processInfo.environment["CARLOS_FUZZ_WRITE_SEEDS"] else {
    return 0
  }
  do {
    try FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true)
    for (index, seed) in Fuzzed.seeds().enumerated() {
      try Data(seed).write(to: URL(fileURLWithPath: "\(folder)/seed-\(index)"))
    }
  } catch {
    fatalError("cannot write the seeds to \(folder): \(error)")
  }
  exit(0)
}

/// Called for every input libFuzzer makes.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  Fuzzed.fuzz(UnsafeRawBufferPointer(start: size == 0 ? nil : data, count: size))
  return 0
}
