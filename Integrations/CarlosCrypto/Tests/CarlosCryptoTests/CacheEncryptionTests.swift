#if Crypto
import CarlosCrypto
import Crypto
import Foundation
import Testing

@Suite("CacheEncryption")
struct CacheEncryptionTests {
  let value = Data("a session that belongs to user 7".utf8)

  @Test("A sealed value opens for its key in both algorithms, and its bytes are not the value's")
  func roundTrip() throws {
    let ring = try CacheKeyRing(current: "k1", key: SymmetricKey(size: .bits256))
    for algorithm in CacheEncryption.Algorithm.allCases {
      let encryption = CacheEncryption(keys: ring, namespace: "sessions", algorithm: algorithm)
      let sealed = try encryption.seal(value, forKey: "user:7")
      #expect(sealed.starts(with: Data("CCE".utf8) + [1, algorithm.rawValue, 2]) == true)
      #expect(sealed.range(of: value) == nil)
      #expect(try encryption.open(sealed, forKey: "user:7") == value)
      #expect(try encryption.seal(value, forKey: "user:7") != sealed, "a fresh nonce every time")
      #expect(try encryption.open(encryption.seal(Data(), forKey: "e"), forKey: "e") == Data())
    }
  }

  @Test("The cache key and the namespace are bound: a value moved to either does not open")
  func boundToKeyAndNamespace() throws {
    let ring = try CacheKeyRing(current: "k1", key: SymmetricKey(size: .bits256))
    let sessions = CacheEncryption(keys: ring, namespace: "sessions")
    let sealed = try sessions.seal(value, forKey: "user:7")
    #expect(throws: CacheEncryptionError.authenticationFailed) {
      try sessions.open(sealed, forKey: "user:8")
    }
    #expect(throws: CacheEncryptionError.authenticationFailed) {
      try CacheEncryption(keys: ring, namespace: "profiles").open(sealed, forKey: "user:7")
    }
    // The lengths are bound too: ("ab", "c") is not ("a", "bc").
    let split = try CacheEncryption(keys: ring, namespace: "ab").seal(value, forKey: "c")
    #expect(throws: CacheEncryptionError.authenticationFailed) {
      try CacheEncryption(keys: ring, namespace: "a").open(split, forKey: "bc")
    }
  }

  @Test("Keys rotate: older keys still open their values, new values take the current key")
  func rotation() throws {
    let first = SymmetricKey(size: .bits256)
    let second = SymmetricKey(size: .bits256)
    let before = CacheEncryption(keys: try CacheKeyRing(current: "2026-10", key: first))
    let sealedBefore = try before.seal(value, forKey: "k")
    let after = CacheEncryption(
      keys: try CacheKeyRing(current: "2026-11", key: second, older: ["2026-10": first]))
    #expect(try after.open(sealedBefore, forKey: "k") == value)
    let sealedAfter = try after.seal(value, forKey: "k")
    #expect(sealedAfter.range(of: Data("2026-11".utf8)) != nil)
    let withoutOld = CacheEncryption(keys: try CacheKeyRing(current: "2026-11", key: second))
    #expect(throws: CacheEncryptionError.unknownKey(id: "2026-10")) {
      try withoutOld.open(sealedBefore, forKey: "k")
    }
    #expect(throws: CacheEncryptionError.unknownKey(id: "2026-11")) {
      try before.open(sealedAfter, forKey: "k")
    }
  }

  @Test("A key ring refuses ids that do not fit the envelope and keys that are not 256-bit")
  func ringValidation() {
    #expect(throws: CacheEncryptionError.invalidKeyID("")) {
      try CacheKeyRing(current: "", key: SymmetricKey(size: .bits256))
    }
    let long = String(repeating: "é", count: 128)
    #expect(throws: CacheEncryptionError.invalidKeyID(long)) {
      try CacheKeyRing(
        current: "k", key: SymmetricKey(size: .bits256), older: [long: .init(size: .bits256)])
    }
    #expect(throws: CacheEncryptionError.invalidKeySize(bits: 128)) {
      try CacheKeyRing(current: "k", key: SymmetricKey(size: .bits128))
    }
  }

  @Test("Bytes that are not an envelope are refused as such, whatever they are")
  func notEnvelopes() throws {
    let encryption = CacheEncryption(
      keys: try CacheKeyRing(current: "k1", key: SymmetricKey(size: .bits256)))
    let sealed = try encryption.seal(value, forKey: "k")
    for bytes in [Data(), Data("CCE".utf8), value, sealed.prefix(5), sealed.prefix(8 + 27)] {
      #expect(throws: CacheEncryptionError.notAnEnvelope) {
        try encryption.open(bytes, forKey: "k")
      }
    }
    var otherAlgorithm = sealed
    otherAlgorithm[4] = 9
    #expect(throws: CacheEncryptionError.unknownAlgorithm(9)) {
      try encryption.open(otherAlgorithm, forKey: "k")
    }
  }
}
#endif
