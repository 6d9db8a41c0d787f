// The names the documentation's snippets use as the reader's own: each snippet is
// type-checked as a program's main file next to this one (Scripts/check-snippets.py).
import Carlos
import Foundation

/// Whether the app is online: a Bool of the reader's.
let isOnline = true
/// A session token of the reader's.
let token = Data("token".utf8)
/// Text to parse.
let text = "42"
/// A cache key of the reader's.
let key = "answer"

/// The reader's origin: an async function that loads the data for a key.
@Sendable func load(_ key: String) async throws -> Data { Data(key.utf8) }
/// The reader's origin as a level.
let origin = BasicFetcher<String, Data>(name: "origin", fetch: load)
/// Parses text.
@Sendable func parse(_ text: String) async throws -> Int { Int(text) ?? 0 }
/// Downloads something.
@Sendable func download() async throws -> Data { Data() }
/// Shows data.
@Sendable func show(_ data: Data) {}
/// Reports an error.
@Sendable func report(_ error: any Error) {}

/// A user profile of the reader's.
struct User: Codable, Sendable {
  var name: String
}

/// The reader's API client.
struct ProfileAPI: Sendable {
  func profile(_ id: String) async throws -> User { User(name: id) }
}
/// The reader's API.
let api = ProfileAPI()
