import Foundation

/// One libFuzzer target: what it feeds the fuzzed bytes to, and the seed inputs
/// the project's own writers make for it.
///
/// Each target's file declares `typealias Fuzzed = ItsTarget`; `FuzzEntry.swift`
/// hands libFuzzer's calls to that type.
protocol FuzzTarget {
  /// Inputs written by the project's own writers, to start the corpus from.
  static func seeds() -> [[UInt8]]
  /// Feeds `input` to the parser and checks its invariants; stops the process
  /// (a crash libFuzzer keeps) when one breaks.
  static func fuzz(_ input: UnsafeRawBufferPointer)
}

/// Stops the fuzzer when an invariant breaks: libFuzzer saves the input that
/// broke it as a crash file.
func require(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
  file: StaticString = #fileID, line: UInt = #line
) {
  if !condition() { fatalError("invariant broken: \(message())", file: file, line: line) }
}

/// Copies `bytes` into a heap block of exactly their size, so AddressSanitizer
/// reports any read past their end (an array may have spare capacity there).
func withExactCopy<R>(of bytes: [UInt8], _ body: (UnsafeRawBufferPointer) -> R) -> R {
  let block = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
  defer { block.deallocate() }
  bytes.withUnsafeBytes { block.copyMemory(from: $0) }
  return body(UnsafeRawBufferPointer(block))
}
