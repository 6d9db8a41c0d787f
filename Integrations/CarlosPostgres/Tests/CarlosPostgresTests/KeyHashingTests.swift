#if Postgres
import Carlos
import CarlosPostgres
import Crypto
import Foundation
import PostgresNIO
import Testing

/// Keys stored as HMAC-SHA256 digests (`PostgresCacheOptions.keyHashing`).
@Suite("PostgresCacheLevel: hashed keys", .enabled(if: !PostgresTestServer.skipped))
struct KeyHashingTests {
  static let secret = Data((0..<32).map { UInt8($0) })

  /// The digest a key is stored under, computed here independently.
  static func digest(_ key: String, secret: Data = secret) -> Data {
    Data(
      HMAC<Crypto.SHA256>.authenticationCode(for: Data(key.utf8), using: SymmetricKey(data: secret))
    )
  }

  @Test("a secret shorter than 32 bytes is refused with a clear error")
  func shortSecret() throws {
    #expect(throws: PostgresCacheLevelError.secretTooShort(size: 16, minimum: 32)) {
      try PostgresKeyHashing(secret: Data(count: 16))
    }
    #expect(
      PostgresCacheLevelError.secretTooShort(size: 16, minimum: 32).description
        == "the key-hashing secret has 16 bytes; it needs at least 32")
  }

  @Test(
    "gets, sets, entries, insert-if-absent and removes work; the table holds digests, never a key"
  )
  func levelWorksOnDigests() async throws {
    try await PostgresTestServer.withClient { client in
      let options = PostgresCacheOptions(
        namespace: PostgresTestServer.namespace(),
        keyHashing: try PostgresKeyHashing(secret: Self.secret))
      let level = try PostgresCacheLevel<String>(client: client, options: options)
      let keys = ["alice@example.com", "user:42", "caf\u{E9}", ""]
      for key in keys { try await level.set(Data("v-\(key)".utf8), forKey: key).value }
      for key in keys { #expect(try await level.get(key).value == Data("v-\(key)".utf8)) }
      // The two spellings of "é" are one key, as in clear.
      #expect(try await level.get("cafe\u{301}").value == Data("v-caf\u{E9}".utf8))
      #expect(try await level.entry(forKey: "user:42").value.value == Data("v-user:42".utf8))
      #expect(try await level.insertIfAbsent(Data("x".utf8), forKey: "user:42").value == false)
      #expect(try await level.insertIfAbsent(Data("y".utf8), forKey: "user:43").value == true)

      let rows = try await client.query(
        "SELECT key FROM carlos_cache WHERE namespace = \(options.namespace) ORDER BY key"
      ).collect()
      let stored = Set(try rows.map { Data(try $0.decode(ByteBuffer.self).readableBytesView) })
      #expect(stored == Set((keys + ["user:43"]).map { Self.digest($0) }))

      try await level.remove("user:42").value
      #expect(await outcome(level.get("user:42")).failure as? FetchError == .valueNotInCache)
    }
  }

  @Test("a level with another secret, or with keys in clear, does not see the values")
  func otherSecretMisses() async throws {
    try await PostgresTestServer.withClient { client in
      let namespace = PostgresTestServer.namespace()
      let hashed = try PostgresCacheLevel<String>(
        client: client,
        options: .init(
          namespace: namespace, keyHashing: try PostgresKeyHashing(secret: Self.secret)))
      let otherSecret = try PostgresCacheLevel<String>(
        client: client,
        options: .init(
          namespace: namespace, keyHashing: try PostgresKeyHashing(secret: Data(count: 32))))
      let clear = try PostgresCacheLevel<String>(
        client: client, options: .init(namespace: namespace))
      try await hashed.set(Data("v".utf8), forKey: "k").value
      #expect(await outcome(otherSecret.get("k")).failure as? FetchError == .valueNotInCache)
      #expect(await outcome(clear.get("k")).failure as? FetchError == .valueNotInCache)
      #expect(try await hashed.get("k").value == Data("v".utf8))
    }
  }

  @Test(
    "notices carry the digest, and another writer's set or remove drops the key from a coherent cache"
  )
  func coherentCacheFollowsDigests() async throws {
    try await PostgresTestServer.withClient { client in
      let options = PostgresCacheOptions(
        namespace: PostgresTestServer.namespace(),
        keyHashing: try PostgresKeyHashing(secret: Self.secret))
      let mine = try PostgresCacheLevel<String>(client: client, options: options)
      let theirs = try PostgresCacheLevel<String>(client: client, options: options)
      let listener = PostgresInvalidationListener(client: client)
      let listening = Task { await listener.run() }
      defer { listening.cancel() }
      let memory = MemoryCacheLevel<String, Data>(capacity: 10)
      let cache = CoherentCache(upper: memory, lower: mine, listener: listener)
      let marks = Marks()
      let subscription = listener.subscribe { event in
        if case .notice(let notice) = event, case .key(let key) = notice.scope {
          marks.add(key.base64EncodedString())
        }
      }
      defer { subscription.cancel() }
      try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }

      try await theirs.set(Data("a1".utf8), forKey: "alice@example.com").value
      try await marks.wait(for: Self.digest("alice@example.com").base64EncodedString())
      #expect(try await cache.get("alice@example.com").value == Data("a1".utf8))
      try await cache.set(Data("b1".utf8), forKey: "bob").value
      // Copied up (a get that overlaps a notice it cannot place skips the copy: retry).
      try await eventually(within: .seconds(20), "the copy of alice") {
        _ = try await cache.get("alice@example.com").value
        _ = try await memory.get("alice@example.com").value
      }

      try await theirs.set(Data("a2".utf8), forKey: "alice@example.com").value
      try await eventually(within: .seconds(20), "the drop of alice") {
        if (try? await memory.get("alice@example.com").value) != nil {
          throw WaitTimedOut(what: "alice")
        }
      }
      #expect(try await cache.get("alice@example.com").value == Data("a2".utf8))
      #expect(try await memory.get("bob").value == Data("b1".utf8), "other keys stay")

      try await theirs.remove("bob").value
      try await eventually(within: .seconds(20), "the drop of bob") {
        if (try? await memory.get("bob").value) != nil { throw WaitTimedOut(what: "bob") }
      }
      #expect(await outcome(cache.get("bob")).failure != nil)
    }
  }
}
#endif
