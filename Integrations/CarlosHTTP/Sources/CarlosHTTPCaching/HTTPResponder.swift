#if HTTPCaching
/// A level that answers a request in the caller's task: what the caching proxy
/// awaits in place of `get(_:)`, whose future runs the answer in a task of its
/// own (one more task and two more thread hops per request).
package protocol HTTPResponder: Sendable {
  /// The response to `request`.
  func response(for request: HTTPRequestKey) async throws -> HTTPResponse
}

extension HTTPCache: HTTPResponder {}
#endif
