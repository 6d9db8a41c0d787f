// Linux shim for the CommonCrypto calls the original Carlos 0.10.1 makes (CC_MD5), in plain Swift (RFC 1321).
public let CC_MD5_DIGEST_LENGTH: Int32 = 16
public typealias CC_LONG = UInt32
@discardableResult
public func CC_MD5(_ data: UnsafeRawPointer?, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>? {
  var message = [UInt8](UnsafeRawBufferPointer(start: data, count: Int(len)))
  let s: [UInt32] = [7,12,17,22,7,12,17,22,7,12,17,22,7,12,17,22,5,9,14,20,5,9,14,20,5,9,14,20,5,9,14,20,
                     4,11,16,23,4,11,16,23,4,11,16,23,4,11,16,23,6,10,15,21,6,10,15,21,6,10,15,21,6,10,15,21]
  let k: [UInt32] = (0..<64).map { UInt32(truncatingIfNeeded: Int64(abs(sin(Double($0 + 1))) * 4294967296.0)) }
  var a0: UInt32 = 0x67452301, b0: UInt32 = 0xefcdab89, c0: UInt32 = 0x98badcfe, d0: UInt32 = 0x10325476
  let bitLength = UInt64(message.count) * 8
  message.append(0x80)
  while message.count % 64 != 56 { message.append(0) }
  for i in 0..<8 { message.append(UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(i)))) }
  for chunk in stride(from: 0, to: message.count, by: 64) {
    var m = [UInt32](repeating: 0, count: 16)
    for i in 0..<16 { for j in 0..<4 { m[i] |= UInt32(message[chunk + i * 4 + j]) << (8 * UInt32(j)) } }
    var a = a0, b = b0, c = c0, d = d0
    for i in 0..<64 {
      var f: UInt32, g: Int
      switch i {
      case 0..<16: f = (b & c) | (~b & d); g = i
      case 16..<32: f = (d & b) | (~d & c); g = (5 * i + 1) % 16
      case 32..<48: f = b ^ c ^ d; g = (3 * i + 5) % 16
      default: f = c ^ (b | ~d); g = (7 * i) % 16
      }
      f = f &+ a &+ k[i] &+ m[g]
      a = d; d = c; c = b
      b = b &+ ((f << s[i]) | (f >> (32 - s[i])))
    }
    a0 = a0 &+ a; b0 = b0 &+ b; c0 = c0 &+ c; d0 = d0 &+ d
  }
  if let md = md { for (n, v) in [a0, b0, c0, d0].enumerated() { for j in 0..<4 { md[n * 4 + j] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(j))) } } }
  return md
}
#if canImport(Glibc)
import Glibc
#endif
