#if HTTPCaching
extension String {
  /// The text lowercased, without a copy when it has no uppercase letter and no
  /// byte outside ASCII (as field names and directives almost always are).
  var lowercasedIfNeeded: String {
    utf8.contains { $0 >= 0x80 || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
      ? lowercased() : self
  }

  /// The text uppercased, without a copy when it has no lowercase letter and no
  /// byte outside ASCII (as request methods almost always are).
  var uppercasedIfNeeded: String {
    utf8.contains { $0 >= 0x80 || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
      ? uppercased() : self
  }
}
#endif
