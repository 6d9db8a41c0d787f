import CarlosPostgres
import Foundation
import Hummingbird

/// The service under test: a JSON endpoint over a ``UserStore``.
///
/// - `GET /users/{id}`: the user's JSON (502 when the upstream fails);
/// - `PUT /users/{id}`: replaces it (204; 405 when the store takes no writes; 503 at
///   once while PostgreSQL is known unreachable);
/// - `POST /admin/clear`: forgets every cached user (204);
/// - `GET /health`: 200 once the server runs.
public enum UserService {
  /// The application serving `store` on `port` of 127.0.0.1.
  public static func application(
    store: some UserStore, port: Int,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
  ) -> Application<RouterResponder<BasicRequestContext>> {
    let router = Router()
    router.get("health") { _, _ in "ok" }
    router.get("users/:id") { _, context -> Response in
      let id = try context.parameters.require("id")
      do {
        return .json(try await store.user(id))
      } catch {
        throw HTTPError(.badGateway, message: "upstream: \(error)")
      }
    }
    router.put("users/:id") { request, context -> HTTPResponse.Status in
      let id = try context.parameters.require("id")
      let body = try await request.body.collect(upTo: 64 << 10)
      do {
        try await store.update(id, to: Data(body.readableBytesView))
      } catch is NotSupported {
        throw HTTPError(.methodNotAllowed)
      } catch PostgresCacheLevelError.unavailable {
        throw HTTPError(.serviceUnavailable, message: "the shared cache is unreachable")
      }
      return .noContent
    }
    router.post("admin/clear") { _, _ -> HTTPResponse.Status in
      do { try await store.clear() } catch is NotSupported {
        throw HTTPError(.methodNotAllowed)
      }
      return .noContent
    }
    return Application(
      router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
      onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) })
  }
}
