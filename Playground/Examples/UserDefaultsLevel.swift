import Carlos
import Foundation

extension Example {
  static let userDefaultsLevel: Example = Example(
    name: "user-defaults-level",
    summary: "UserDefaultsCacheLevel keeps Codable values in a UserDefaults suite of its own"
  ) {
    struct Settings: Codable, Sendable {
      let theme: String
      let fontSize: Int
    }

    let level = UserDefaultsCacheLevel<String, Settings>(name: "carlos.playground.settings")
    try await level.set(Settings(theme: "dark", fontSize: 14), forKey: "user-42").value
    let settings = try await level.get("user-42").value
    print("stored and read back: theme \(settings.theme), font size \(settings.fontSize)")

    let reopened = UserDefaultsCacheLevel<String, Settings>(name: "carlos.playground.settings")
    print(
      "another level on the same suite sees it: \(await outcome(reopened.get("user-42").map(\.theme)))"
    )
    print("a key never set: \(await outcome(level.get("user-7")))")

    let numbers = UserDefaultsCacheLevel<String, Int>(name: "carlos.playground.settings")
    print("read as the wrong type: \(await outcome(numbers.get("user-42")))")

    level.clear()
    print("after clear(): \(await outcome(level.get("user-42")))")
  }
}
