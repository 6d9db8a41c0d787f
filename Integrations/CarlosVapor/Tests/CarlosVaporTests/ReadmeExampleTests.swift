#if Vapor
import Carlos
import CarlosVapor
import Foundation
import Vapor
import XCTVapor
import XCTest

// The README's snippet, verbatim, so that it keeps compiling.
private func configure(_ app: Application) {
  app.caches.use(.carlos(MemoryCacheLevel<String, Data>(capacity: 64 << 20)))
}

final class ReadmeExampleTests: XCTestCase {
  func testTheReadmeConfigurationServesReqCache() async throws {
    let app = try await Application.make(.testing)
    configure(app)
    app.get("hello") { req async throws -> String in
      try await req.cache.set("greeting", to: "hello")
      return try await req.cache.get("greeting", as: String.self) ?? "missing"
    }
    try await app.test(.GET, "hello") { response async in
      XCTAssertEqual(response.body.string, "hello")
    }
    try await app.asyncShutdown()
  }
}
#endif
