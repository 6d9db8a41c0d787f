#if Hummingbird
import Carlos
import CarlosHummingbird
import Foundation
import Hummingbird

/// A pipeline like a server's: memory above a second level standing for the database.
func memoryOverStore() -> InsertingComposition<
  MemoryCacheLevel<String, Data>, MemoryCacheLevel<String, Data>
> {
  MemoryCacheLevel<String, Data>(capacity: 1 << 20)
    >>> MemoryCacheLevel<String, Data>(
      capacity: 1 << 20)
}

/// The routes of Hummingbird's persist tests, over `persist`:
/// - `PUT /persist/:tag` sets the body; `PUT /persist/:tag/:seconds` sets it with an expiry;
/// - `GET /persist/:tag` answers it (204 when missing), `GET /persist/:tag/ttl` its seconds left;
/// - `DELETE /persist/:tag` removes it;
/// - `PUT /create/:tag` creates it, answering 409 when it exists.
func persistRouter(_ persist: some PersistDriver) -> Router<BasicRequestContext> {
  let router = Router()
  router.put("/persist/:tag") { request, context -> HTTPResponse.Status in
    let body = try await request.body.collect(upTo: .max)
    try await persist.set(key: try context.parameters.require("tag"), value: String(buffer: body))
    return .ok
  }
  router.put("/persist/:tag/:seconds") { request, context -> HTTPResponse.Status in
    let seconds = try context.parameters.require("seconds", as: Int.self)
    let body = try await request.body.collect(upTo: .max)
    try await persist.set(
      key: try context.parameters.require("tag"), value: String(buffer: body),
      expires: .seconds(seconds))
    return .ok
  }
  router.get("/persist/:tag") { _, context -> String? in
    try await persist.get(key: try context.parameters.require("tag"), as: String.self)
  }
  router.get("/persist/:tag/ttl") { _, context -> String? in
    let answer = try await persist.getWithTTL(
      key: try context.parameters.require("tag"), as: String.self)
    return answer?.ttl.map { String($0.components.seconds) }
  }
  router.delete("/persist/:tag") { _, context -> HTTPResponse.Status in
    try await persist.remove(key: try context.parameters.require("tag"))
    return .noContent
  }
  router.put("/create/:tag") { request, context -> HTTPResponse.Status in
    let body = try await request.body.collect(upTo: .max)
    do {
      try await persist.create(
        key: try context.parameters.require("tag"), value: String(buffer: body))
    } catch let error as PersistError where error == .duplicate {
      throw HTTPError(.conflict)
    }
    return .ok
  }
  return router
}
#endif
