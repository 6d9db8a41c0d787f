#!/bin/bash
# genmain.sh SPEC_DIR > main.swift : an entry point that does what Quick's QCKMain does on
# Linux (there is no Objective-C discovery there), listing every QuickSpec / QuickConfiguration
# subclass declared (commented-out, i.e. excluded, classes are not listed). It prints one line
# "PENDING: <example name>" per pending example (xit/pending/xdescribe/xcontext: swift-corelibs-xctest
# reports those as passed) and "EXAMPLE: <name>" for every example.
# Environment: SPEC_CLASS=Name runs one spec class only; SKIP_FILE=path skips the examples named
# in it, one a line (used to go on after an example crashed the process); SKIP_ALL=1 lists the
# examples and runs none.
set -euo pipefail
dir=$1
list() { grep -rhoE "^[[:space:]]*(final )?class [A-Za-z0-9_]+(<[^>]*>)?: $1" "$dir" | sed -E 's/.*class ([A-Za-z0-9_]+).*/\1.self/' | sort -u | paste -sd, | sed 's/,/, /g'; }
cat <<SWIFT
@testable import Quick
import XCTest
import Foundation
let allSpecClasses: [QuickSpec.Type] = [$(list QuickSpec)]
let configurationClasses: [QuickConfiguration.Type] = [$(list QuickConfiguration)]
let env = ProcessInfo.processInfo.environment
let specClasses = allSpecClasses.filter { env["SPEC_CLASS"] == nil || "\(\$0)" == env["SPEC_CLASS"] }
if env["LIST_CLASSES"] != nil { for s in allSpecClasses { print("CLASS: \(s)") }; exit(0) }
var skip = Set<String>()
if let path = env["SKIP_FILE"], let text = try? String(contentsOfFile: path, encoding: .utf8) {
  skip = Set(text.split(separator: "\n").map(String.init))
}
QuickConfiguration.configureSubclassesIfNeeded(configurationClasses, world: World.sharedWorld)
// gather every class's examples, as a full run does, so that every beforeSuite hook is registered
// (NimbleTweaks's sets Nimble's timeout to 5 s) even when one class runs
for spec in allSpecClasses { _ = spec.allTests }
var entries: [XCTestCaseEntry] = []
for spec in specClasses {
  let tests = spec.allTests.filter { !skip.contains(\$0.0) }
  for wrapper in World.sharedWorld.examples(forSpecClass: spec) {
    print("EXAMPLE: \(wrapper.example.name)\tAT: \(URL(fileURLWithPath: "\(wrapper.example.callsite.file)").lastPathComponent):\(wrapper.example.callsite.line)")
    if !wrapper.runFullTest { print("PENDING: \(wrapper.example.name)") }
  }
  if !tests.isEmpty && env["SKIP_ALL"] == nil { entries.append(testCase(tests)) }
}
fflush(stdout)
XCTMain(entries)
SWIFT
