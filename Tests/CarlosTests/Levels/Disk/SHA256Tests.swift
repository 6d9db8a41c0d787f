import Carlos
import Testing

@Suite("SHA256")
struct SHA256Tests {
  private func hex(_ text: String) -> String {
    DiskCacheHooks.hex(SHA256.digest(Array(text.utf8)))
  }

  @Test("Known digests (FIPS 180-4 examples)")
  func knownDigests() {
    #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      hex(String(repeating: "a", count: 1_000_000))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test("Lengths around the block and padding boundaries give distinct, stable digests")
  func boundaries() {
    var seen = Set<String>()
    for length in [55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129] {
      let text = String(repeating: "x", count: length)
      let digest = hex(text)
      #expect(digest.count == 64)
      #expect(digest == hex(text))
      seen.insert(digest)
    }
    #expect(seen.count == 11)
  }
}
