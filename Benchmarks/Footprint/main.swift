// Resident bytes per entry of a `String → Int` map, measured as the issue
// "The memory level at real sizes" asks: the process's resident set
// (`/proc/self/statm`) before and after storing the entries, the key strings made
// before the first reading.
//
//   swift run -c release --package-path Benchmarks Footprint <subject> [entries]
//
// <subject>: `dictionary` (a `[String: Int]`), `adaptive` or `lru` (a
// `MemoryCacheLevel` whose capacity holds every entry), or `adaptive-read` /
// `lru-read` (the level, after one get of every key). Prints one line:
// `<subject> <entries> <bytes per entry>`. Run each subject in its own process.
import Carlos
import Foundation

/// The process's resident bytes, from `/proc/self/statm`.
func residentBytes() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
    let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
  else { fatalError("cannot read /proc/self/statm") }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

let arguments = CommandLine.arguments
let subject = arguments.count > 1 ? arguments[1] : "dictionary"
let entries = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000
let keys = (0..<entries).map { "user:\($0):profile" }

/// Stores every key in a level with `policy`, reading each once when `reads`;
/// returns the resident growth, with the level still alive.
func measureLevel(_ policy: EvictionPolicy, reads: Bool) -> Int {
  let before = residentBytes()
  let level = MemoryCacheLevel<String, Int>(capacity: entries, policy: policy)
  for (value, key) in keys.enumerated() { level.set(value, forKey: key) }
  if reads {
    for key in keys { _ = level.get(key).result }
  }
  let growth = residentBytes() - before
  precondition(level.count == entries, "the level dropped entries")
  return growth
}

let growth: Int
switch subject {
case "dictionary":
  let before = residentBytes()
  var dictionary: [String: Int] = [:]
  for (value, key) in keys.enumerated() { dictionary[key] = value }
  growth = residentBytes() - before
  precondition(dictionary.count == entries)
case "adaptive": growth = measureLevel(.adaptiveTinyLFU, reads: false)
case "lru": growth = measureLevel(.lru, reads: false)
case "adaptive-read": growth = measureLevel(.adaptiveTinyLFU, reads: true)
case "lru-read": growth = measureLevel(.lru, reads: true)
default: fatalError("unknown subject \(subject)")
}
print(subject, entries, String(format: "%.1f", Double(growth) / Double(entries)))
