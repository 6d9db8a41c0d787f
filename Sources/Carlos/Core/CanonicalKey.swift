import Foundation

/// The one spelling persistent levels store a key under.
///
/// Swift compares strings by canonical equivalence, so `"é"` (one code point)
/// and `"e\u{301}"` (`e` and a combining accent) are the same `String` key in
/// memory. Levels that name things by bytes (disk, user defaults) store every
/// key in Unicode Normalization Form C, so both spellings reach the same entry
/// on every level.
package enum CanonicalKey {
  /// The NFC form of `key`'s ``StringConvertible/toString()``.
  package static func string(for key: some StringConvertible) -> String {
    string(key.toString())
  }

  /// The NFC form of `text`; ASCII text is returned as it is.
  package static func string(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
    return text.precomposedStringWithCanonicalMapping
  }
}
