#if Crypto
import CarlosCrypto
import Crypto
import Foundation
import Testing

@Suite("Tampered envelopes")
struct TamperingTests {
  /// A deterministic generator, so a failure can be replayed.
  struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  @Test("10,000 mutations of stored envelopes: none opens to a wrong value, none crashes")
  func mutations() throws {
    var random = SplitMix(state: 2026_11_26)
    let first = SymmetricKey(size: .bits256)
    let ring = try CacheKeyRing(
      current: "current", key: SymmetricKey(size: .bits256), older: ["old": first])
    let namespaces = ["sessions", "profiles"]
    let encryptions = namespaces.map { CacheEncryption(keys: ring, namespace: $0) }
    let chacha = CacheEncryption(keys: ring, namespace: "sessions", algorithm: .chaChaPoly)
    let old = CacheEncryption(
      keys: try CacheKeyRing(current: "old", key: first), namespace: "sessions")
    let keys = (0..<20).map { "user:\($0)" }
    var stored: [(encryption: Int, key: String, value: Data, sealed: Data)] = []
    for (index, key) in keys.enumerated() {
      let value = Data((0..<(index * 37)).map { _ in UInt8.random(in: 0...255, using: &random) })
      let encryption = index % 2
      stored.append((encryption, key, value, try encryptions[encryption].seal(value, forKey: key)))
    }
    stored.append(
      (
        0, "user:old", Data("sealed with the old key".utf8),
        try old.seal(Data("sealed with the old key".utf8), forKey: "user:old")
      ))
    stored.append(
      (
        0, "user:chacha", Data("chacha".utf8),
        try chacha.seal(Data("chacha".utf8), forKey: "user:chacha")
      ))

    var kinds = [String: Int]()
    var wrong = 0
    var opened = 0
    for _ in 0..<10_000 {
      let original = stored.randomElement(using: &random)!
      var bytes = original.sealed
      var key = original.key
      var encryption = original.encryption
      let kind: String
      switch Int.random(in: 0..<7, using: &random) {
      case 0:
        kind = "bit flip"
        let index = Int.random(in: 0..<bytes.count, using: &random)
        bytes[index] ^= 1 << UInt8.random(in: 0..<8, using: &random)
      case 1:
        kind = "truncation"
        bytes = bytes.prefix(Int.random(in: 0..<bytes.count, using: &random))
      case 2:
        kind = "bytes added"
        bytes.append(
          contentsOf: (0..<Int.random(in: 1...32, using: &random)).map { _ in
            UInt8.random(in: 0...255, using: &random)
          })
      case 3:
        kind = "moved to another key"
        key = keys.filter { $0 != original.key }.randomElement(using: &random)!
      case 4:
        kind = "moved to another namespace"
        encryption = 1 - encryption
      case 5:
        kind = "unknown key id"
        let idLength = Int(bytes[5])
        bytes.replaceSubrange(
          6..<(6 + idLength), with: Data("k\(Int.random(in: 0..<1000, using: &random))".utf8))
        bytes[5] = UInt8(bytes.count - original.sealed.count + idLength)
      default:
        kind = "random bytes"
        bytes = Data(
          (0..<Int.random(in: 0...96, using: &random)).map { _ in
            UInt8.random(in: 0...255, using: &random)
          })
      }
      kinds[kind, default: 0] += 1
      if let value = try? encryptions[encryption].open(bytes, forKey: key) {
        opened += 1
        if value != original.value { wrong += 1 }
      }
    }
    #expect(wrong == 0)
    #expect(opened == 0, "every mutation changes what is authenticated")
    #expect(kinds.count == 7 && kinds.values.allSatisfy { $0 > 1_200 }, "\(kinds)")
  }
}
#endif
