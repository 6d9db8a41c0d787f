import AsyncHTTPClient
import Foundation
import NIOCore

/// Measures how long a write through one instance takes to be seen by another.
public enum StalenessProbe {
  /// The probe waited too long for a write to show.
  public struct NeverSeen: Error, CustomStringConvertible {
    /// The version written.
    public var version: Int
    /// What went wrong.
    public var description: String { "version \(version) was not served within 5 s" }
  }

  /// Writes `count` new versions of user `id` through `writer`, one after another,
  /// and after each polls `reader` until it serves that version; returns, per write,
  /// the time from sending the write to reading it back from the other instance.
  public static func run(
    writer: URL, reader: URL, id: String, count: Int, client: HTTPClient
  ) async throws -> [Duration] {
    let clock = ContinuousClock()
    var delays: [Duration] = []
    for version in 1...count {
      let user = User(id: id, name: "User \(id)", version: version)
      var put = HTTPClientRequest(url: writer.appending(path: "users/\(id)").absoluteString)
      put.method = .PUT
      put.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(user)))
      let start = clock.now
      let written = try await client.execute(put, timeout: .seconds(5))
      guard written.status == .noContent else {
        throw NotSupported("a write answered \(written.status.code)")
      }
      while true {
        let get = HTTPClientRequest(url: reader.appending(path: "users/\(id)").absoluteString)
        let response = try await client.execute(get, timeout: .seconds(5))
        let body = try await response.body.collect(upTo: 64 << 10)
        if let served = try? JSONDecoder().decode(User.self, from: Data(body.readableBytesView)),
          served.version >= version
        {
          break
        }
        guard clock.now - start < .seconds(5) else { throw NeverSeen(version: version) }
        try await Task.sleep(for: .microseconds(200))
      }
      delays.append(clock.now - start)
    }
    return delays
  }
}
