#if Hummingbird
import Carlos
import CarlosHummingbird
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

// The README's snippet, verbatim, so that it keeps compiling.
private func makeApplication() -> some ApplicationProtocol {
  let memory = MemoryCacheLevel<String, Data>(capacity: 64 << 20)
  let disk = DiskCacheLevel<String, Data>(capacity: 512 << 20)  // ~/.cache/<executable>/carlos
  let persist = CarlosPersistDriver(memory >>> disk)

  let router = Router()
  router.put("/visits/:page") { _, context -> String in
    let page = try context.parameters.require("page")
    let visits = (try await persist.get(key: page, as: Int.self) ?? 0) + 1
    try await persist.set(key: page, value: visits)
    return "\(visits)"
  }
  return Application(router: router, services: [persist])
}

@Suite("README example")
struct ReadmeExampleTests {
  @Test("the README's application counts visits in memory >>> disk")
  func countsVisits() async throws {
    let page = UUID().uuidString
    try await makeApplication().test(.router) { client in
      try await client.execute(uri: "/visits/\(page)", method: .put) { response in
        #expect(String(buffer: response.body) == "1")
      }
      try await client.execute(uri: "/visits/\(page)", method: .put) { response in
        #expect(String(buffer: response.body) == "2")
      }
    }
  }
}
#endif
