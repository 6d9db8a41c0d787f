#if HTTPCaching
import Foundation

/// HTTP dates (RFC 9110, section 5.6.7): read in the three formats a recipient
/// must accept, written as IMF-fixdate. Whole seconds, always GMT.
///
/// ```swift
/// HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT")  // 1994-11-06 08:49:37 +0000
/// HTTPDate.format(Date(timeIntervalSince1970: 0))  // "Thu, 01 Jan 1970 00:00:00 GMT"
/// ```
public enum HTTPDate {
  private static let months = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
  ]
  private static let monthNames = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]
  private static let dayNames = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
  private static let shortDays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
  private static let longDays = [
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
  ]

  /// The date in `text`, in IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850
  /// (`Sunday, 06-Nov-94 08:49:37 GMT`) or asctime (`Sun Nov  6 08:49:37 1994`)
  /// format; `nil` for anything else, such as `0` or an impossible day.
  ///
  /// Names compare without case and surrounding whitespace is ignored; the day of
  /// the week is not checked against the date. A two-digit year is 19xx from 70 on
  /// and 20xx below. A leap second (`:60`) counts as the next second.
  public static func parse(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    var start = 0
    var end = bytes.count
    while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
    while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
    var reader = Reader(bytes: bytes[start..<end])
    return imfFixdate(&reader) ?? rfc850(&reader) ?? asctime(&reader)
  }

  /// `date` as an IMF-fixdate, rounded down to the second. Years outside 1–9999
  /// are clamped to that range.
  public static func format(_ date: Date) -> String {
    let lowest = -62_135_596_800.0  // 0001-01-01T00:00:00Z
    let highest = 253_402_300_799.0  // 9999-12-31T23:59:59Z
    let seconds = Int64(min(max(date.timeIntervalSince1970.rounded(.down), lowest), highest))
    let days = floorDivide(seconds, 86_400)
    let secondOfDay = Int(seconds - days * 86_400)
    let (year, month, day) = civil(fromDays: days)
    let weekday = dayNames[Int(((days % 7) + 7) % 7)]
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    var yearText = String(year)
    while yearText.count < 4 { yearText = "0" + yearText }
    return "\(weekday), \(two(day)) \(monthNames[month - 1]) \(yearText) "
      + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
  }

  // MARK: - The three formats

  private static func imfFixdate(_ input: inout Reader) -> Date? {
    var reader = input
    guard reader.name(in: shortDays) != nil, reader.literal(","), reader.literal(" "),
      let day = reader.digits(2), reader.literal(" "), let month = reader.name(in: months),
      reader.literal(" "), let year = reader.digits(4), reader.literal(" "),
      let time = reader.time(), reader.literal(" "), reader.literalIgnoringCase("GMT"),
      reader.atEnd
    else { return nil }
    return date(year: year, month: month + 1, day: day, time: time)
  }

  private static func rfc850(_ input: inout Reader) -> Date? {
    var reader = input
    guard reader.name(in: longDays) != nil, reader.literal(","), reader.literal(" "),
      let day = reader.digits(2), reader.literal("-"), let month = reader.name(in: months),
      reader.literal("-"), let shortYear = reader.digits(2), reader.literal(" "),
      let time = reader.time(), reader.literal(" "), reader.literalIgnoringCase("GMT"),
      reader.atEnd
    else { return nil }
    let year = shortYear < 70 ? 2000 + shortYear : 1900 + shortYear
    return date(year: year, month: month + 1, day: day, time: time)
  }

  private static func asctime(_ input: inout Reader) -> Date? {
    var reader = input
    guard reader.name(in: shortDays) != nil, reader.literal(" "),
      let month = reader.name(in: months), reader.literal(" ")
    else { return nil }
    let day: Int
    if reader.literal(" ") {
      guard let digit = reader.digits(1) else { return nil }
      day = digit
    } else {
      guard let digits = reader.digits(2) else { return nil }
      day = digits
    }
    guard reader.literal(" "), let time = reader.time(), reader.literal(" "),
      let year = reader.digits(4), reader.atEnd
    else { return nil }
    return date(year: year, month: month + 1, day: day, time: time)
  }

  /// The date of a validated calendar day and time of day, or `nil` when the day
  /// does not exist (31 April, 29 February of a common year, year 0).
  private static func date(year: Int, month: Int, day: Int, time: (Int, Int, Int)) -> Date? {
    guard year >= 1, day >= 1, day <= daysIn(month: month, year: year) else { return nil }
    let (hour, minute, second) = time
    guard hour <= 23, minute <= 59, second <= 60 else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    // 9999-12-31T23:59:60Z (a leap second) would be past the last date `format` writes.
    guard seconds <= 253_402_300_799 else { return nil }
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
  private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = floorDivide(y, 400)
    let yearOfEra = y - era * 400
    let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The proleptic Gregorian date `days` after 1970-01-01.
  private static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = floorDivide(z, 146_097)
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
    let month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
    let year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    a >= 0 ? a / b : (a - b + 1) / b
  }

  /// Reads a date's parts from its bytes, front to back.
  private struct Reader {
    let bytes: ArraySlice<UInt8>
    var index: Int

    init(bytes: ArraySlice<UInt8>) {
      self.bytes = bytes
      index = bytes.startIndex
    }

    var atEnd: Bool { index == bytes.endIndex }

    mutating func literal(_ text: StaticString) -> Bool {
      let count = text.utf8CodeUnitCount
      guard bytes.endIndex - index >= count else { return false }
      for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] {
        return false
      }
      index += count
      return true
    }

    mutating func literalIgnoringCase(_ text: StaticString) -> Bool {
      let count = text.utf8CodeUnitCount
      guard bytes.endIndex - index >= count else { return false }
      for offset in 0..<count
      where Self.lower(bytes[index + offset]) != Self.lower(text.utf8Start[offset]) {
        return false
      }
      index += count
      return true
    }

    /// Exactly `count` ASCII digits.
    mutating func digits(_ count: Int) -> Int? {
      guard bytes.endIndex - index >= count else { return nil }
      var value = 0
      for offset in 0..<count {
        let byte = bytes[index + offset]
        guard byte >= 0x30 && byte <= 0x39 else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      index += count
      return value
    }

    /// `HH:MM:SS`.
    mutating func time() -> (Int, Int, Int)? {
      guard let hour = digits(2), literal(":"), let minute = digits(2), literal(":"),
        let second = digits(2)
      else { return nil }
      return (hour, minute, second)
    }

    /// The position in `names` (lowercase ASCII letters) of the letters that come next.
    mutating func name(in names: [String]) -> Int? {
      var end = index
      while end < bytes.endIndex && Self.isLetter(bytes[end]) { end += 1 }
      let word = String(decoding: bytes[index..<end].map(Self.lower), as: UTF8.self)
      guard let position = names.firstIndex(of: word) else { return nil }
      index = end
      return position
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
      (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
      byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }
  }
}
#endif
