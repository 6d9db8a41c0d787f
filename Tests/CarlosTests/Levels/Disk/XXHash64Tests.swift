import Carlos
import Testing

@Suite("XXHash64")
struct XXHash64Tests {
  @Test("Known hashes (reference XXH64 vectors)")
  func knownHashes() {
    #expect(XXHash64.hash(Array("".utf8)) == 0xEF46_DB37_51D8_E999)
    #expect(XXHash64.hash(Array("a".utf8)) == 0xD24E_C4F1_A98C_6E5B)
    #expect(XXHash64.hash(Array("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
    #expect(XXHash64.hash(Array("Hello, World!".utf8)) == 0xC49A_ACF8_080F_E47F)
    // 39 bytes: runs the 32-byte stripe loop.
    #expect(
      XXHash64.hash(Array("Nobody inspects the spammish repetition".utf8)) == 0xFBCE_A83C_8A37_8BF1)
  }

  @Test("The seed and every byte change the hash")
  func sensitivity() {
    let bytes = [UInt8](repeating: 7, count: 100)
    let base = XXHash64.hash(bytes)
    #expect(XXHash64.hash(bytes, seed: 1) != base)
    for index in [0, 31, 32, 63, 64, 95, 96, 99] {
      var changed = bytes
      changed[index] ^= 1
      #expect(XXHash64.hash(changed) != base, "byte \(index)")
    }
  }
}
