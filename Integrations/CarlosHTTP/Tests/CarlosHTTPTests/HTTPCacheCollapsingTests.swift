#if HTTP
import Carlos
import CarlosHTTP
import Foundation
import Synchronization
import Testing

/// The error an origin of these tests fails with.
private struct OriginDown: Error, Equatable {}

@Suite("HTTPCache request collapsing")
struct HTTPCacheCollapsingTests {
  let url = URL(string: "http://origin.test/cold")!

  @Test("200 concurrent gets of a cold URL make one origin request and get one answer")
  func coldURLIsFetchedOnce() async throws {
    let origin = SlowOrigin { _, index in
      originResponse("v\(index)", ["Cache-Control": "max-age=60"])
    }
    let cache = origin.cache()
    let key = HTTPRequestKey(url)
    let answers = try await concurrently(200) { _ in try await cache.response(for: key) }
    #expect(origin.calls == 1)
    #expect(answers.count == 200)
    #expect(answers.allSatisfy { $0.status == 200 && text($0) == "v0" })
  }

  @Test("20 concurrent callers of each of 50 URLs make one origin request per URL")
  func eachKeyIsFetchedOnce() async throws {
    let origin = SlowOrigin { request, _ in
      originResponse(request.url.path, ["Cache-Control": "max-age=60"])
    }
    let cache = origin.cache()
    let answers = try await concurrently(50 * 20) { index in
      let path = "/page/\(index % 50)"
      let answer = try await cache.response(
        for: HTTPRequestKey(URL(string: "http://origin.test" + path)!))
      return (path, text(answer))
    }
    #expect(origin.calls == 50)
    #expect(answers.allSatisfy { $0.0 == $0.1 })
  }

  @Test("A server's own cache collapses the concurrent requests of a route it asks itself")
  func askingOriginIsCollapsed() async throws {
    let origin = SlowOrigin { _, index in
      originResponse("v\(index)", ["Cache-Control": "max-age=60"])
    }
    // The cache's origin level is never asked: each request names its own.
    let cache = MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry>()
      .caching(BasicFetcher<HTTPRequestKey, HTTPResponse> { _ in throw OriginDown() })
    let key = HTTPRequestKey(url)
    let answers = try await concurrently(200) { _ in
      try await cache.response(for: key) { try await origin.answer($0) }
    }
    #expect(origin.calls == 1)
    #expect(answers.allSatisfy { text($0) == "v0" })
  }

  @Test(
    "A response that may not be stored is asked again by each waiter, all at once",
    arguments: ["no-store", "private, max-age=60"])
  func notStorableIsAskedByEachWaiter(control: String) async throws {
    let origin = SlowOrigin { _, index in originResponse("v\(index)", ["Cache-Control": control]) }
    let cache = origin.cache()
    let key = HTTPRequestKey(url)
    let answers = try await concurrently(20) { _ in try await cache.response(for: key) }
    #expect(origin.calls == 20)
    // Nobody got another's answer, and the waiters did not wait for one another.
    #expect(Set(answers.map(text)).count == 20)
    #expect(origin.mostInFlight > 1)
  }

  @Test("After a response that may not be stored, callers go to the origin without waiting")
  func passIsRemembered() async throws {
    let storable = Mutex(false)
    let origin = SlowOrigin { _, index in
      let control = storable.withLock { $0 } ? "max-age=60" : "no-store"
      return originResponse("v\(index)", ["Cache-Control": control])
    }
    let clock = ManualClock()
    let cache = origin.cache(clock: clock)
    let key = HTTPRequestKey(url)
    _ = try await concurrently(20) { _ in try await cache.response(for: key) }
    #expect(origin.calls == 20)
    origin.resetMostInFlight()
    _ = try await concurrently(20) { _ in try await cache.response(for: key) }
    #expect(origin.calls == 40)
    #expect(origin.mostInFlight == 20)
    // Once the response may be stored, storing it ends the pass.
    storable.withLock { $0 = true }
    _ = try await cache.response(for: key)
    #expect(origin.calls == 41)
    clock.advance(by: .seconds(61))
    let answers = try await concurrently(20) { _ in try await cache.response(for: key) }
    #expect(origin.calls == 42)
    #expect(answers.allSatisfy { text($0) == "v41" })
  }

  @Test("The leader's error is every waiter's error")
  func errorIsShared() async throws {
    let origin = SlowOrigin { _, index in
      if index == 0 { throw OriginDown() }
      return originResponse("v\(index)", ["Cache-Control": "max-age=60"])
    }
    let cache = origin.cache()
    let key = HTTPRequestKey(url)
    let outcomes = try await concurrently(20) { _ -> Result<HTTPResponse, any Error> in
      do { return .success(try await cache.response(for: key)) } catch { return .failure(error) }
    }
    #expect(origin.calls == 1)
    #expect(
      outcomes.allSatisfy { outcome in
        guard case .failure(let error) = outcome else { return false }
        return error is OriginDown
      })
  }

  @Test("When the leader is cancelled, one waiter asks the origin in its place")
  func cancelledLeaderHandsOver() async throws {
    // The first request hangs until it is cancelled; the next answers at once.
    let origin = SlowOrigin(
      delay: { $0 == 0 ? .seconds(30) : .milliseconds(100) },
      reply: { _, index in originResponse("v\(index)", ["Cache-Control": "max-age=60"]) })
    let cache = origin.cache()
    let key = HTTPRequestKey(url)
    let leader = Task { try await cache.response(for: key) }
    try await origin.wait(forCalls: 1)
    let waiters = Task { try await concurrently(5) { _ in try await cache.response(for: key) } }
    try await Task.sleep(for: .milliseconds(200))
    leader.cancel()
    await #expect(throws: CancellationError.self) { try await leader.value }
    let answers = try await waiters.value
    #expect(answers.map(text) == Array(repeating: "v1", count: 5))
    #expect(origin.calls == 2)
  }

  @Test("A waiter that is cancelled stops waiting while the leader goes on")
  func cancelledWaiterStops() async throws {
    let origin = SlowOrigin(delay: .seconds(2)) { _, index in
      originResponse("v\(index)", ["Cache-Control": "max-age=60"])
    }
    let cache = origin.cache()
    let key = HTTPRequestKey(url)
    let leader = Task { try await cache.response(for: key) }
    try await origin.wait(forCalls: 1)
    let waiter = Task { try await cache.response(for: key) }
    try await Task.sleep(for: .milliseconds(100))
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
    #expect(origin.inFlight == 1)
    #expect(text(try await leader.value) == "v0")
    #expect(origin.calls == 1)
  }

  @Test("A request's no-cache or max-age=0 joins a revalidation in flight")
  func revalidatingRequestsJoin() async throws {
    let origin = SlowOrigin { request, index in
      if request.headers["If-None-Match"] == "\"e\"" {
        return HTTPResponse(status: 304, headers: ["ETag": "\"e\"", "Cache-Control": "max-age=60"])
      }
      return originResponse("v\(index)", ["ETag": "\"e\"", "Cache-Control": "max-age=60"])
    }
    let cache = origin.cache()
    _ = try await cache.response(for: HTTPRequestKey(url))
    let answers = try await concurrently(20) { index in
      let control = index.isMultiple(of: 2) ? "max-age=0" : "no-cache"
      return try await cache.response(for: HTTPRequestKey(url, headers: ["Cache-Control": control]))
    }
    #expect(origin.calls == 2)
    #expect(answers.allSatisfy { $0.status == 200 && text($0) == "v0" })
  }

  @Test("Waiters are served the fetched response as their own requests ask for it")
  func waitersGetTheirOwnView() async throws {
    let origin = SlowOrigin { _, _ in
      originResponse("abcdef", ["ETag": "\"e\"", "Cache-Control": "max-age=60"])
    }
    let cache = origin.cache()
    let leader = Task { try await cache.response(for: HTTPRequestKey(url)) }
    try await origin.wait(forCalls: 1)
    async let conditional = cache.response(
      for: HTTPRequestKey(url, headers: ["If-None-Match": "\"e\""]))
    async let range = cache.response(for: HTTPRequestKey(url, headers: ["Range": "bytes=0-1"]))
    #expect(try await conditional.status == 304)
    let partial = try await range
    #expect(partial.status == 206)
    #expect(text(partial) == "ab")
    #expect(text(try await leader.value) == "abcdef")
    #expect(origin.calls == 1)
  }

  @Test("A conditional request answers only itself, so it leads no one")
  func conditionalRequestDoesNotLead() async throws {
    let origin = SlowOrigin { request, index in
      if request.headers["If-None-Match"] == "\"e\"" {
        return HTTPResponse(status: 304, headers: ["ETag": "\"e\""])
      }
      return originResponse("v\(index)", ["ETag": "\"e\"", "Cache-Control": "max-age=60"])
    }
    let cache = origin.cache()
    let conditional = Task {
      try await cache.response(for: HTTPRequestKey(url, headers: ["If-None-Match": "\"e\""]))
    }
    try await origin.wait(forCalls: 1)
    let answers = try await concurrently(10) { _ in
      try await cache.response(for: HTTPRequestKey(url))
    }
    #expect(try await conditional.value.status == 304)
    #expect(answers.allSatisfy { text($0) == "v1" })
    #expect(origin.calls == 2)
  }

  @Test("A waiter whose Vary variant differs from the leader's asks for its own")
  func otherVariantAsksAgain() async throws {
    let origin = SlowOrigin { request, index in
      let language = request.headers["Accept-Language"] ?? "none"
      return originResponse(
        "\(language) \(index)", ["Cache-Control": "max-age=60", "Vary": "Accept-Language"])
    }
    let cache = origin.cache()
    let english = Task {
      try await cache.response(for: HTTPRequestKey(url, headers: ["Accept-Language": "en"]))
    }
    try await origin.wait(forCalls: 1)
    let german = try await concurrently(10) { _ in
      try await cache.response(for: HTTPRequestKey(url, headers: ["Accept-Language": "de"]))
    }
    #expect(text(try await english.value) == "en 0")
    #expect(german.allSatisfy { text($0) == "de 1" })
    #expect(origin.calls == 2)
  }
}
#endif
