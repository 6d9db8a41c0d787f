#if Postgres
import Foundation

/// The bytes a key is stored under: the UTF-8 of its Unicode NFC form, so the two
/// spellings of `"é"` (one `String` to Swift) are one key, as on the disk level.
enum CanonicalKeyBytes {
  /// The UTF-8 bytes of `text` in NFC; ASCII text as it is.
  static func bytes(of text: String) -> String.UTF8View {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8 }
    return text.precomposedStringWithCanonicalMapping.utf8
  }
}
#endif
