#if Postgres
// Two processes sharing one PostgreSQL cache tier, each with its own memory level.
//
//   swift run carlos-postgres-example        (in two terminals, with DATABASE_URL set)
//
// Type commands (one per line): `set KEY VALUE`, `get KEY`, `remove KEY`, `clear`,
// `quit`. A set in one terminal makes the other drop KEY from its memory level
// (it prints `invalidated KEY`), so its next `get` reads the new value from
// PostgreSQL. The tests and the benchmark drive the same commands through a pipe;
// they also use `hammer KEY BYTE COUNT SIZE` (COUNT sets of SIZE bytes all equal to
// BYTE), `lead KEY LEASE_MS` (starts a PostgresSingleFlight get of KEY with a lease
// of LEASE_MS whose load prints `loading KEY` and never ends) and `ping`.
import Carlos
import CarlosPostgres
import Foundation
import PostgresNIO

/// Writes a line to standard output at once (the tests read it through a pipe).
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Runs the example until standard input ends or `quit`.
func runExample() async throws {
  let environment = ProcessInfo.processInfo.environment
  guard let url = environment["DATABASE_URL"] else {
    say("error DATABASE_URL is not set (see Integrations/README.md)")
    exit(2)
  }
  let namespace = environment["CARLOS_EXAMPLE_NAMESPACE"] ?? "example"

  let client = PostgresClient(configuration: try DatabaseURL.configuration(url))
  let clientTask = Task { await client.run() }
  let listener = PostgresInvalidationListener(client: client)
  let listenerTask = Task { await listener.run() }
  let shared = try PostgresCacheLevel<String>(
    client: client,
    options: PostgresCacheOptions(namespace: namespace, operationTimeout: .seconds(5)))
  let memory = MemoryCacheLevel<String, Data>(capacity: 10_000)
  // Prints each notice of another process once its key left this process's memory.
  let cache = CoherentCache(upper: memory, lower: shared, listener: listener) { notice in
    let now = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
    switch notice.scope {
    case .key(let key): say("invalidated \(String(decoding: key, as: UTF8.self)) \(now)")
    case .namespace: say("invalidated-all \(now)")
    }
  }
  await listener.waitUntilListening()
  say("ready \(namespace)")

  while let line = readLine() {
    let words = line.split(separator: " ", maxSplits: 2).map(String.init)
    guard let command = words.first else { continue }
    do {
      switch (command, words.count) {
      case ("set", 3):
        try await cache.set(Data(words[2].utf8), forKey: words[1]).value
        say("ok")
      case ("get", 2):
        let inMemory = try? await memory.get(words[1]).value
        let source = inMemory != nil && cache.isUsingUpper ? "memory" : "postgres"
        if let value = try? await cache.get(words[1]).value {
          say("value \(String(decoding: value, as: UTF8.self)) from \(source)")
        } else {
          say("miss")
        }
      case ("remove", 2):
        try await cache.remove(words[1]).value
        say("ok")
      case ("clear", 1):
        try await shared.clearAll().value
        cache.clear()
        say("ok")
      case ("hammer", 3):
        let parts = words[2].split(separator: " ").compactMap { Int($0) }
        guard parts.count == 3, (0...255).contains(parts[0]) else { throw ExampleError.usage }
        let value = Data(repeating: UInt8(parts[0]), count: parts[2])
        for _ in 0..<parts[1] { try await shared.set(value, forKey: words[1]).value }
        say("ok")
      case ("lead", 3):
        guard let milliseconds = Int(words[2]) else { throw ExampleError.usage }
        let flight = PostgresSingleFlight(
          level: shared, listener: listener, lease: .milliseconds(milliseconds))
        let key = words[1]
        Task {
          _ = try? await flight.get(key) { key in
            say("loading \(key)")
            try await Task.sleep(for: .seconds(3600))
            return Data()
          }
        }
      case ("ping", 1):
        say("pong")
      case ("quit", 1):
        listenerTask.cancel()
        clientTask.cancel()
        return
      default:
        say("error usage: set KEY VALUE | get KEY | remove KEY | clear | quit")
      }
    } catch {
      say("error \(error)")
    }
  }
  listenerTask.cancel()
  clientTask.cancel()
}

/// A command line that could not be read.
enum ExampleError: Error {
  case usage
}

try await runExample()
#else
import Foundation

FileHandle.standardError.write(
  Data(
    "carlos-postgres-example is built only with the package trait Postgres: swift run --traits Postgres carlos-postgres-example\n"
      .utf8))
exit(2)
#endif
