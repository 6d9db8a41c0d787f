import Carlos
import Foundation

/// The value the crash-test writer stores for `key`, and the test expects: 1 to 4 MiB in 64 KiB blocks, each starting with
/// its index, the rest 64-bit words derived from the key and their position.
package func crashValue(for key: String) -> Data {
  let seed = XXHash64.hash(Array(key.utf8))
  let blockCount = 16 + Int(seed % 48)
  var block = [UInt64](repeating: 0, count: 8_192)
  for index in block.indices {
    block[index] = (seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15).littleEndian
  }
  var value = Data(capacity: blockCount * 65_536)
  for blockIndex in 0..<blockCount {
    block[0] = UInt64(blockIndex).littleEndian
    block.withUnsafeBytes { value.append(contentsOf: $0) }
  }
  return value
}
