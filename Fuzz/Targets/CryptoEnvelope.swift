import Foundation

typealias Fuzzed = CryptoEnvelope

/// The encrypted level's envelope, as it reads bytes from storage before anything is
/// authenticated: ``EncryptedEnvelope/init(parsing:)``.
///
/// `EncryptedEnvelope.swift` and `CacheEncryptionError.swift` of
/// `Integrations/CarlosCrypto` are compiled into this target (they need Foundation
/// only), so swift-crypto is not built; the decryption itself is BoringSSL's, and the
/// package's tests mutate sealed envelopes 10,000 times. Invariants: no crash; an
/// accepted envelope has a key id of 1 to 255 bytes and room for its nonce and tag,
/// and writes back as the input, byte for byte; its associated data starts with its
/// header and differs for different namespace and key splits.
enum CryptoEnvelope: FuzzTarget {
  static func seeds() -> [[UInt8]] {
    let sealed = Data(repeating: 7, count: EncryptedEnvelope.overhead + 5)
    return [
      EncryptedEnvelope(algorithm: 1, keyID: "2026-11", sealed: sealed).bytes,
      EncryptedEnvelope(algorithm: 2, keyID: "é", sealed: sealed).bytes,
      EncryptedEnvelope(algorithm: 9, keyID: String(repeating: "k", count: 255), sealed: sealed)
        .bytes,
    ].map { Array($0) }
  }

  static func fuzz(_ input: UnsafeRawBufferPointer) {
    let bytes = Data(input)
    guard let envelope = try? EncryptedEnvelope(parsing: bytes) else { return }
    require(
      (1...255).contains(envelope.keyID.utf8.count), "key id of \(envelope.keyID.utf8.count) bytes")
    require(envelope.sealed.count >= EncryptedEnvelope.overhead, "no room for nonce and tag")
    require(envelope.bytes == bytes, "the envelope does not write back as it was read")
    let one = envelope.associatedData(namespace: "ab", key: "c")
    let other = envelope.associatedData(namespace: "a", key: "bc")
    require(one.starts(with: Array(envelope.header)) && one != other, "associated data is ambiguous")
  }
}
