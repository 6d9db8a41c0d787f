// Linux build shim for the ORIGINAL Carlos 0.10.1 (not a change to its code):
// Darwin's Foundation has NSDictionary.fileSize() for file attributes.
#if os(Linux)
import Foundation
extension NSDictionary {
  func fileSize() -> UInt64 {
    let value = self[FileAttributeKey.size] ?? self[FileAttributeKey.size.rawValue] ?? self[NSString(string: FileAttributeKey.size.rawValue)]
    if let number = value as? NSNumber { return number.uint64Value }
    if let number = value as? UInt64 { return number }
    if let number = value as? Int { return UInt64(number) }
    return 0
  }
}
#endif
