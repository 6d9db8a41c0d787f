import Carlos
import Dispatch
import Foundation
import PiedPiper
import Testing

@Suite("CacheCallContext")
struct CacheCallContextTests {
  /// An upper level that misses later, from another thread, as a disk level does.
  func slowMiss() -> BasicCache<String, String> {
    BasicCache(
      getClosure: { _ in
        let promise = Promise<String>()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) {
          promise.fail(FetchError.valueNotInCache)
        }
        return promise.future
      },
      setClosure: { _, _ in Future() }, clearClosure: {}, memoryClosure: {})
  }

  @Test(
    "while active, a composition binds the get's context around its lower level's get, asked later on another thread"
  )
  func carriedToTheLowerLevel() async throws {
    CacheCallContext.isActive = true
    let seen = Promise<String?>()
    let lower = BasicFetcher<String, String> { key in
      seen.succeed(CacheCallContext.current as? String)
      return Future("value of \(key)")
    }
    let cache = slowMiss() >>> lower
    let request: Future<String> = CacheCallContext.$current.withValue("request 1") {
      cache.get("k")
    }
    #expect(try await request.value == "value of k")
    #expect(try await seen.future.value == "request 1")
    #expect(CacheCallContext.current == nil, "nothing stays bound after the get")
  }
}
