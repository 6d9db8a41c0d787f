// Replays a key trace through the real MemoryCacheLevel under each eviction
// policy and prints the hit ratios.
//
//   zcat lirs-loop.keys.gz | swift run -c release --package-path Benchmarks HitRatio 250 500
//
// Input: one signed 64-bit integer key per line on standard input. Every request
// is a `get`; a miss is followed by a `set` of a unit-cost value (an `Int`), so the
// capacity is a number of entries. Hit ratio = hits / requests, cold misses included.
// Options: `--tsv` prints tab-separated rows (size, then one ratio per policy);
// `--seed N` (default 0) renames the keys by a bijection chosen by N, the same as
// drawing another hash seed (see Seeding.swift); the tool always runs with
// SWIFT_DETERMINISTIC_HASHING=1, so one command prints the same figures every time;
// `--policies lru,tinyLFU,adaptive` picks the columns (all three by default);
// `--hits-out DIR` also writes each replay's outcome per request to
// DIR/<size>-<policy>.hits, one byte per request (1: hit, 0: miss), for
// Scripts/switch-bound.py.

import Carlos
import Foundation

Seeding.requireDeterministicHashing()

let usage =
  "usage: HitRatio [--tsv] [--seed N] [--policies lru,tinyLFU,adaptive] [--hits-out DIR] <cache size>... < keys"
let policyNames: [String: EvictionPolicy] = [
  "lru": .lru, "tinyLFU": .tinyLFU, "adaptive": .adaptiveTinyLFU,
]
var policies: [EvictionPolicy] = [.lru, .tinyLFU, .adaptiveTinyLFU]
var hitsFolder: String?
var seed: UInt64 = 0

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data((message + "\n").utf8))
  exit(64)
}

var sizes: [Int] = []
var tabSeparated = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--tsv":
    tabSeparated = true
  case "--seed":
    guard let value = arguments.popFirst(), let parsed = UInt64(value) else {
      fail("\(usage) (--seed needs a non-negative integer)")
    }
    seed = parsed
  case "--hits-out":
    guard let folder = arguments.popFirst() else { fail("\(usage) (--hits-out needs a folder)") }
    hitsFolder = folder
  case "--policies":
    let names = (arguments.popFirst() ?? "").split(separator: ",").map(String.init)
    let chosen = names.compactMap { policyNames[$0] }
    guard !chosen.isEmpty, chosen.count == names.count else {
      fail("\(usage) (--policies takes a comma-separated list of lru, tinyLFU, adaptive)")
    }
    policies = chosen
  default:
    guard let size = Int(argument), size > 0 else {
      fail("\(usage) (not a positive size: '\(argument)')")
    }
    sizes.append(size)
  }
}
if sizes.isEmpty { fail(usage) }

let trace: [Int64]
do {
  trace = try TraceReader.read(FileHandle.standardInput.readDataToEndOfFile()).map {
    Seeding.rename($0, seed: seed)
  }
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
    let outcomes = Replay.outcomes(trace, capacity: size, policy: policy)
    ratios.append(Double(outcomes.count { $0 == 1 }) / Double(trace.count))
    if let hitsFolder {
      let name = policyNames.first { $0.value == policy }?.key ?? "\(policy)"
      let path = "\(hitsFolder)/\(size)-\(name).hits"
      guard FileManager.default.createFile(atPath: path, contents: Data(outcomes)) else {
        fail("HitRatio: cannot write \(path)")
      }
    }
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
