#if Postgres
import Carlos
import CarlosPostgres
import Foundation
import PostgresNIO
import Testing

/// This process and the example executable as a second one, sharing the test server.
@Suite("Two processes", .enabled(if: !PostgresTestServer.skipped))
struct TwoProcessTests {
  @Test(
    "a set in one process drops the key from the other's memory level, so it reads the new value")
  func crossProcessInvalidation() async throws {
    let namespace = PostgresTestServer.namespace()
    try await PostgresTestServer.withClient { client in
      let other = try ExampleProcess(
        databaseURL: try PostgresTestServer.url(), namespace: namespace)
      _ = try await other.line(startingWith: "ready")
      let listener = PostgresInvalidationListener(client: client)
      let listening = Task { await listener.run() }
      defer { listening.cancel() }
      let shared = try PostgresCacheLevel<String>(
        client: client, options: PostgresCacheOptions(namespace: namespace))
      let cache = CoherentCache(
        upper: MemoryCacheLevel<String, Data>(capacity: 100), lower: shared, listener: listener)
      try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }

      try await cache.set(Data("one".utf8), forKey: "greeting").value
      // The other process hears of every write, even of a key it does not hold yet.
      _ = try await other.line(startingWith: "invalidated greeting ")
      #expect(try await other.ask("get greeting") == "value one from postgres")
      #expect(try await other.ask("get greeting") == "value one from memory")

      try await cache.set(Data("two".utf8), forKey: "greeting").value
      _ = try await other.line(startingWith: "invalidated greeting ")
      let afterInvalidation = try await other.ask("get greeting")
      #expect(afterInvalidation == "value two from postgres")

      // And the other way round: the example's set drops the key here.
      #expect(try await cache.get("greeting").value == Data("two".utf8))
      #expect(try await other.ask("set greeting three") == "ok")
      try await eventually(within: .seconds(10), "the notice") {
        let value = try await cache.get("greeting").value
        if value != Data("three".utf8) { throw WaitTimedOut(what: "three") }
      }
      #expect(try await other.ask("remove greeting") == "ok")
      try await eventually(within: .seconds(10), "the removal") {
        if (try? await cache.get("greeting").value) != nil { throw WaitTimedOut(what: "removal") }
      }
      await other.stop()
    }
  }

  @Test("two processes setting one key at once: every read sees one value whole, never a torn one")
  func concurrentSetsNeverTear() async throws {
    let namespace = PostgresTestServer.namespace()
    try await PostgresTestServer.withClient { client in
      let url = try PostgresTestServer.url()
      let first = try ExampleProcess(databaseURL: url, namespace: namespace)
      let second = try ExampleProcess(databaseURL: url, namespace: namespace)
      _ = try await first.line(startingWith: "ready")
      _ = try await second.line(startingWith: "ready")
      let level = try PostgresCacheLevel<String>(
        client: client, options: PostgresCacheOptions(namespace: namespace))
      let size = 300_000
      first.send("hammer contested 65 40 \(size)")
      second.send("hammer contested 66 40 \(size)")
      var reads = 0
      var seen = Set<UInt8>()
      // At least 400 reads, and on until one finds a value (slow children start late).
      let deadline = ContinuousClock.now + .seconds(60)
      while reads < 400 || (seen.isEmpty && ContinuousClock.now < deadline) {
        if let value = try? await level.get("contested").value {
          #expect(value.count == size)
          let bytes = Set(value)
          #expect(bytes.count == 1, "a torn value mixes \(bytes)")
          seen.formUnion(bytes)
        }
        reads += 1
      }
      #expect(try await first.line(startingWith: "ok", within: .seconds(60)) == "ok")
      #expect(try await second.line(startingWith: "ok", within: .seconds(60)) == "ok")
      let final = try await level.get("contested").value
      #expect(Set(final).count == 1 && final.count == size)
      #expect(!seen.isEmpty)
      await first.stop()
      await second.stop()
    }
  }
}
#endif
