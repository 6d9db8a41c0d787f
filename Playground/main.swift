import Foundation

let arguments = CommandLine.arguments.dropFirst()

func runExample(_ example: Example) async -> Bool {
  print("=== \(example.name): \(example.summary)")
  do {
    try await example.run()
    print("")
    return true
  } catch {
    print("!!! \(example.name) failed: \(error)\n")
    return false
  }
}

if let name = arguments.first {
  guard let example = catalog.first(where: { $0.name == name }) else {
    print("No example named '\(name)'. Available examples:")
    for example in catalog { print("  \(example.name) — \(example.summary)") }
    exit(64)
  }
  exit(await runExample(example) ? 0 : 1)
}

print("Carlos Playground — \(catalog.count) examples (run one with `swift run Playground <name>`):")
for example in catalog { print("  \(example.name) — \(example.summary)") }
print("")
var failures = 0
for example in catalog where !(await runExample(example)) {
  failures += 1
}
print(failures == 0 ? "All \(catalog.count) examples ran." : "\(failures) example(s) failed.")
exit(failures == 0 ? 0 : 1)
