#if HTTPCaching
import Carlos

extension HTTPResponse: ExpensiveObject {
  /// The body's size plus the header fields' sizes, in bytes.
  public var cost: Int {
    body.count + headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
  }
}
#endif
