import AsyncHTTPClient
import CarlosPostgres
import Foundation
import Hummingbird
import NIOCore
import PostgresNIO
import Testing
import UserDirectory

@Suite("Two instances of the service on one PostgreSQL")
struct TwoInstancesTests {
  func get(_ url: URL, _ client: HTTPClient) async throws -> (status: UInt, user: User?) {
    let response = try await client.execute(
      HTTPClientRequest(url: url.absoluteString), timeout: .seconds(10))
    let body = try await response.body.collect(upTo: 1 << 20)
    return (
      response.status.code, try? JSONDecoder().decode(User.self, from: Data(body.readableBytesView))
    )
  }

  /// `count` Carlos instances on one new namespace of `database`, each listening for
  /// notices (or 20 s gone) before the next starts, with their stores.
  func startInstances(
    _ count: Int, database: String, upstream: URL, client: HTTPClient, singleFlight: Bool = false
  ) async throws -> (instances: [RunningService], stores: [CarlosStore]) {
    let namespace = "users-\(UUID().uuidString.prefix(8))"
    var instances: [RunningService] = []
    var stores: [CarlosStore] = []
    for _ in 0..<count {
      let postgres = try DatabaseURL.configuration(database)
      let listener = PostgresInvalidationListener(configuration: postgres)
      let store = try CarlosStore(
        postgres: postgres, listener: listener, upstream: upstream, client: client,
        namespace: namespace, singleFlight: singleFlight)
      stores.append(store)
      instances.append(
        try await RunningService.start { ready in
          var app = UserService.application(store: store, port: 0, onServerRunning: ready)
          app.addServices(store.shared, listener)
          return app
        })
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await listener.waitUntilListening() }
        group.addTask {
          try await Task.sleep(for: .seconds(20))
          throw CancellationError()
        }
        try await group.next()
        group.cancelAll()
      }
    }
    return (instances, stores)
  }

  /// Asks `body` every 10 ms until it is true, for at most 20 s; answers its last answer.
  func eventually(_ body: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
      if try await body() { return true }
      try await Task.sleep(for: .milliseconds(10))
    }
    return try await body()
  }

  @Test("reads go memory, PostgreSQL, upstream; a write on one instance is read by the other")
  func coherent() async throws {
    let database = try databaseURL()
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    let served = RequestCounter()
    let upstream = try await RunningService.start { ready in
      Upstream.application(port: 0, served: served, onServerRunning: ready)
    }
    let (instances, stores) = try await startInstances(
      2, database: database, upstream: upstream.url, client: client)
    let (a, b) = (instances[0].url, instances[1].url)

    #expect(try await get(a.appending(path: "users/7"), client).user?.name == "User 7")
    #expect(served.value == 1)
    // A answers before its copy into PostgreSQL is written; B reads that copy.
    #expect(try await eventually { (try? await stores[0].shared.get("7")) != nil })
    #expect(try await get(b.appending(path: "users/7"), client).user?.version == 0)
    #expect(try await get(a.appending(path: "users/7"), client).user?.version == 0)
    #expect(served.value == 1, "the second instance read PostgreSQL, the first its memory")

    var put = HTTPClientRequest(url: a.appending(path: "users/7").absoluteString)
    put.method = .PUT
    put.body = .bytes(
      ByteBuffer(bytes: try JSONEncoder().encode(User(id: "7", name: "Seven", version: 3))))
    #expect(try await client.execute(put, timeout: .seconds(10)).status == .noContent)
    var seen: User?
    _ = try await eventually {
      seen = try await get(b.appending(path: "users/7"), client).user
      return seen?.version == 3
    }
    #expect(seen == User(id: "7", name: "Seven", version: 3), "B dropped its copy on A's notice")
    #expect(served.value == 1)

    let delays = try await StalenessProbe.run(
      writer: a, reader: b, id: "8", count: 20, client: client)
    #expect(delays.count == 20)

    var clear = HTTPClientRequest(url: a.appending(path: "admin/clear").absoluteString)
    clear.method = .POST
    #expect(try await client.execute(clear, timeout: .seconds(10)).status == .noContent)
    #expect(
      try await eventually {
        try await get(b.appending(path: "users/7"), client).user?.version == 0
      },
      "B dropped its copy on the clear's notice")
    #expect(served.value >= 2, "after a clear the upstream is asked again")

    for instance in instances { try await instance.stop() }
    try await upstream.stop()
    try await client.shutdown()
  }

  @Test("with single flight, 3 instances getting 30 cold users at once ask the upstream once each")
  func singleFlight() async throws {
    let database = try databaseURL()
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    let served = RequestCounter()
    let upstream = try await RunningService.start { ready in
      Upstream.application(port: 0, served: served, onServerRunning: ready)
    }
    let instances = try await startInstances(
      3, database: database, upstream: upstream.url, client: client, singleFlight: true
    ).instances
    let urls = instances.map(\.url)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for url in urls {
        for id in 1...30 {
          group.addTask {
            let user = try await self.get(url.appending(path: "users/\(id)"), client).user
            #expect(user?.name == "User \(id)")
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(served.value == 30, "one upstream request per user, not one per instance")

    for instance in instances { try await instance.stop() }
    try await upstream.stop()
    try await client.shutdown()
  }

  @Test("an upstream that is down is a 502, not a crash or a hang")
  func upstreamDown() async throws {
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    let service = try await RunningService.start { ready in
      UserService.application(
        store: UpstreamOnlyStore(upstream: URL(string: "http://127.0.0.1:1")!, client: client),
        port: 0, onServerRunning: ready)
    }
    #expect(try await get(service.url.appending(path: "users/1"), client).status == 502)
    try await service.stop()
    try await client.shutdown()
  }
}
