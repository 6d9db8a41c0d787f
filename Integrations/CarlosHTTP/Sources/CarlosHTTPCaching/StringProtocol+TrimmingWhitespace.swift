#if HTTPCaching
extension StringProtocol {
  /// The text without spaces and horizontal tabs at either end (HTTP's optional
  /// whitespace), trimmed by Unicode scalar: a space stays whitespace whatever
  /// scalar a `Character` would join to it.
  func trimmingWhitespace() -> String {
    var scalars = Substring(self).unicodeScalars
    while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
    while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
    return String(Substring(scalars))
  }
}
#endif
