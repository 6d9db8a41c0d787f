import Foundation

/// Builds property-list values (what `UserDefaults` hands back) from fuzzed bytes,
/// without Foundation's property-list parser: one tag byte per value, then its
/// contents. Unknown tags and missing bytes end the value early, never fail.
struct PropertyListValues {
  private var bytes: ArraySlice<UInt8>

  init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = ArraySlice(bytes)
  }

  /// The next value; `depth` bounds nesting.
  mutating func next(depth: Int = 0) -> Any {
    guard let tag = take() else { return Data() }
    switch tag % 12 {
    case 0: return Data(take(Int(take() ?? 0)))
    case 1: return String(decoding: take(Int(take() ?? 0)), as: UTF8.self)
    case 2: return NSNumber(value: Int64(bitPattern: word()))
    case 3: return Int(truncatingIfNeeded: Int64(bitPattern: word()))
    case 4: return NSNumber(value: Double(bitPattern: word()))
    case 5: return NSNumber(value: (take() ?? 0) & 1 == 1)
    case 6: return Date(timeIntervalSince1970: Double(bitPattern: word()))
    case 7: return NSNumber(value: word())
    case 8: return Int64(bitPattern: word())
    case 9: return Double(bitPattern: word())
    case 10:
      guard depth < 8 else { return [Any]() }
      return (0..<Int((take() ?? 0) % 8)).map { _ in next(depth: depth + 1) }
    default:
      guard depth < 8 else { return [String: Any]() }
      var fields: [String: Any] = [:]
      for _ in 0..<Int((take() ?? 0) % 8) {
        fields[key()] = next(depth: depth + 1)
      }
      return fields
    }
  }

  /// A dictionary key: often one of the record's fields, so those are reached.
  private mutating func key() -> String {
    let fields = ["value", "storedAt", "expiresAt"]
    let choice = Int(take() ?? 0)
    if choice < 192 { return fields[choice % fields.count] }
    return String(decoding: take(choice - 192), as: UTF8.self)
  }

  private mutating func take() -> UInt8? {
    bytes.popFirst()
  }

  private mutating func take(_ count: Int) -> [UInt8] {
    let taken = bytes.prefix(count)
    bytes = bytes.dropFirst(taken.count)
    return Array(taken)
  }

  private mutating func word() -> UInt64 {
    take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
  }
}
