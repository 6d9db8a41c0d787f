import Foundation

/// Parses a trace: one signed decimal 64-bit integer per line.
enum TraceReader {
  /// A line that is not a 64-bit integer.
  struct MalformedLine: Error, CustomStringConvertible {
    let number: Int
    var description: String { "line \(number) is not a signed 64-bit integer" }
  }

  /// The keys of `data`, in order. Empty lines and `\r` are ignored.
  static func read(_ data: Data) throws -> [Int64] {
    var keys: [Int64] = []
    keys.reserveCapacity(data.count / 4)
    var value: Int64 = 0
    var negative = false
    var digits = 0
    var line = 1
    var overflow = false
    func finish() throws {
      if digits > 0 && !overflow {
        keys.append(value)
      } else if digits > 0 || negative || overflow {
        throw MalformedLine(number: line)
      }
      value = 0
      negative = false
      digits = 0
      overflow = false
    }
    for byte in data {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        let (times, o1) = value.multipliedReportingOverflow(by: 10)
        let digit = Int64(byte - UInt8(ascii: "0"))
        let (sum, o2) =
          negative
          ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
        overflow = overflow || o1 || o2
        value = sum
        digits += 1
      case UInt8(ascii: "-") where digits == 0 && !negative:
        negative = true
      case UInt8(ascii: "\n"):
        try finish()
        line += 1
      case UInt8(ascii: "\r"):
        continue
      default:
        throw MalformedLine(number: line)
      }
    }
    try finish()
    return keys
  }
}
