import Carlos

extension Example {
  static let batching: Example = Example(
    name: "batching",
    summary: "batchGetSome gets what it can; allBatch makes a level of key lists that fails fast"
  ) {
    let level = DictionaryLevel<String, Int>("level", ["one": 1, "two": 2, "three": 3])

    print("batchGetSome returns the values found, in key order:")
    print("  -> \(try await level.batchGetSome(["three", "four", "one"]).value)")

    let batched = level.allBatch()
    print("allBatch succeeds only when every key is found:")
    print("  -> \(await outcome(batched.get(["one", "two"])))")
    print("  -> \(await outcome(batched.get(["one", "four", "two"])))")
    print("allBatch sets pair keys with values:")
    try await batched.set([4, 5], forKey: ["four", "five"]).value
    print(
      "and refuses lists of different lengths: \(await outcome(batched.set([6], forKey: ["six", "seven"])))"
    )
  }
}
