/// How much memory is in use, out of how much may be used: one reading taken
/// by a ``MemoryPressureMonitor``.
///
/// The parsing functions read the text of the Linux files a reading comes
/// from; they return `nil` for text they do not understand, and never crash.
public struct MemoryReading: Sendable, Equatable, CustomStringConvertible {
  /// The bytes in use.
  public let usedBytes: UInt64
  /// The bytes that may be used (a cgroup's limit, or the machine's memory).
  public let limitBytes: UInt64

  /// Creates a reading; `nil` when `limitBytes` is 0, which no real limit is.
  public init?(usedBytes: UInt64, limitBytes: UInt64) {
    guard limitBytes > 0 else { return nil }
    self.usedBytes = usedBytes
    self.limitBytes = limitBytes
  }

  /// The share of the limit in use: 0 is none, 1 is all of it (it can exceed 1).
  public var fractionUsed: Double {
    Double(usedBytes) / Double(limitBytes)
  }

  /// A human-readable description.
  public var description: String {
    "\(usedBytes) of \(limitBytes) bytes (\(Int((fractionUsed * 100).rounded()))%)"
  }

  /// A reading from cgroup v2's `memory.current` and `memory.max` files.
  /// `nil` when `memory.max` says `max` (no limit) or either text is not a number.
  public static func cgroupV2(current: String, max: String) -> MemoryReading? {
    guard let used = parseBytes(current), let limit = parseBytes(max) else { return nil }
    return MemoryReading(usedBytes: used, limitBytes: limit)
  }

  /// A reading from cgroup v1's `memory.usage_in_bytes` and `memory.limit_in_bytes`
  /// files. `nil` when the limit is the kernel's "no limit" value (anything from
  /// 2^62 bytes up) or either text is not a number.
  public static func cgroupV1(usage: String, limit: String) -> MemoryReading? {
    guard let used = parseBytes(usage), let limit = parseBytes(limit), limit < 1 << 62 else {
      return nil
    }
    return MemoryReading(usedBytes: used, limitBytes: limit)
  }

  /// A reading of the whole machine from `/proc/meminfo`: in use is `MemTotal`
  /// minus `MemAvailable` (or, on kernels without it, minus `MemFree`,
  /// `Buffers` and `Cached`). `nil` when the needed lines are missing or malformed.
  public static func meminfo(_ contents: String) -> MemoryReading? {
    var fields: [Substring: UInt64] = [:]
    for line in contents.split(whereSeparator: \.isNewline) {
      let parts = line.split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "\t" })
      guard parts.count >= 2, let number = UInt64(parts[1]) else { continue }
      let multiplier: UInt64 = parts.count >= 3 && parts[2].lowercased() == "kb" ? 1024 : 1
      let (bytes, overflow) = number.multipliedReportingOverflow(by: multiplier)
      guard !overflow else { continue }
      fields[parts[0]] = bytes
    }
    guard let total = fields["MemTotal"], total > 0 else { return nil }
    let available: UInt64
    if let memAvailable = fields["MemAvailable"] {
      available = memAvailable
    } else if let free = fields["MemFree"] {
      available = free &+ (fields["Buffers"] ?? 0) &+ (fields["Cached"] ?? 0)
    } else {
      return nil
    }
    return MemoryReading(usedBytes: total - Swift.min(available, total), limitBytes: total)
  }

  /// The cgroup v2 path of a process, from the text of `/proc/<pid>/cgroup`
  /// (the `0::<path>` line). `nil` when the process is not in a cgroup v2 hierarchy.
  public static func cgroupV2Path(procCgroup contents: String) -> String? {
    for line in contents.split(whereSeparator: \.isNewline) where line.hasPrefix("0::") {
      let path = line.dropFirst(3).trimmingWhitespace()
      guard path.hasPrefix("/"), !path.split(separator: "/").contains("..") else { return nil }
      return String(path)
    }
    return nil
  }

  /// A byte count written as a decimal number, surrounded by whitespace at most.
  private static func parseBytes(_ text: String) -> UInt64? {
    UInt64(text.trimmingWhitespace())
  }
}

extension StringProtocol {
  /// The text without leading and trailing whitespace and newlines.
  fileprivate func trimmingWhitespace() -> Substring {
    let trimmedFront = self[...].drop(while: \.isWhitespace)
    var end = trimmedFront.endIndex
    while end > trimmedFront.startIndex {
      let before = trimmedFront.index(before: end)
      guard trimmedFront[before].isWhitespace else { break }
      end = before
    }
    return Substring(trimmedFront[..<end])
  }
}
