// Replays a key trace through the real MemoryCacheLevel under each eviction
// policy and prints the hit ratios.
//
//   zcat lirs-loop.keys.gz | swift run -c release --package-path Benchmarks HitRatio 250 500
//
// Input: one signed 64-bit integer key per line on standard input. Every request
// is a `get`; a miss is followed by a `set` of a unit-cost value (an `Int`), so the
// capacity is a number of entries. Hit ratio = hits / requests, cold misses included.
// Options: `--tsv` prints tab-separated rows (size, then one ratio per policy).

import Carlos
import Foundation

let policies: [EvictionPolicy] = [.lru, .tinyLFU, .adaptiveTinyLFU]

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data((message + "\n").utf8))
  exit(64)
}

var sizes: [Int] = []
var tabSeparated = false
for argument in CommandLine.arguments.dropFirst() {
  if argument == "--tsv" {
    tabSeparated = true
  } else if let size = Int(argument), size > 0 {
    sizes.append(size)
  } else {
    fail("usage: HitRatio [--tsv] <cache size>... < keys (not a positive size: '\(argument)')")
  }
}
if sizes.isEmpty { fail("usage: HitRatio [--tsv] <cache size>... < keys") }

let trace: [Int64]
do {
  trace = try TraceReader.read(FileHandle.standardInput.readDataToEndOfFile())
} catch {
  fail("HitRatio: \(error)")
}
if trace.isEmpty { fail("HitRatio: the trace on standard input is empty") }

if !tabSeparated {
  print("\(trace.count) requests, \(Set(trace).count) distinct keys")
  print(
    "size".padding(toLength: 8, withPad: " ", startingAt: 0)
      + policies.map { "\($0)".padding(toLength: 24, withPad: " ", startingAt: 0) }.joined()
      + "seconds per policy")
}
for size in sizes {
  var ratios: [Double] = []
  var seconds: [Double] = []
  for policy in policies {
    let start = ContinuousClock.now
    ratios.append(Replay.hitRatio(trace, capacity: size, policy: policy))
    let elapsed = ContinuousClock.now - start
    seconds.append(
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
  }
  if tabSeparated {
    print(
      ([String(size)] + ratios.map { String(format: "%.2f", $0 * 100) }).joined(separator: "\t"))
  } else {
    print(
      String(size).padding(toLength: 8, withPad: " ", startingAt: 0)
        + ratios.map {
          String(format: "%.2f %%", $0 * 100).padding(toLength: 24, withPad: " ", startingAt: 0)
        }.joined()
        + seconds.map { String(format: "%.2f", $0) }.joined(separator: " "))
  }
}
