import Foundation

typealias Fuzzed = PostgresNotice

/// The PostgreSQL level's invalidation notice, as a listener reads another
/// process's `NOTIFY` payload: ``InvalidationNotice/init(payload:)`` on the input
/// read as UTF-8 text (what postgres-nio hands over is a `String`).
///
/// `InvalidationNotice.swift` is compiled into this target (it needs Foundation
/// only), so postgres-nio is not built. Invariants: no crash; an accepted notice,
/// written with ``InvalidationNotice/payload``, reads back as the same notice,
/// except a key notice too long for PostgreSQL, which is written (and reads back)
/// as a notice for its whole namespace.
enum PostgresNotice: FuzzTarget {
  static func seeds() -> [[UInt8]] {
    let sender = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    let notices = [
      InvalidationNotice(sender: sender, namespace: "users", scope: .key(Data("42".utf8))),
      InvalidationNotice(sender: sender, namespace: "", scope: .namespace),
      InvalidationNotice(sender: sender, namespace: "ü\t\u{0}", scope: .key(Data([0, 9, 255]))),
      InvalidationNotice(
        sender: sender, namespace: "big", scope: .key(Data(repeating: 1, count: 6_000))),
    ]
    return notices.map { Array($0.payload.utf8) }
  }

  static func fuzz(_ input: UnsafeRawBufferPointer) {
    let text = String(decoding: input, as: UTF8.self)
    guard let notice = InvalidationNotice(payload: text) else { return }
    let written = notice.payload
    guard let reread = InvalidationNotice(payload: written) else {
      fatalError("payload \(written.debugDescription) written for \(notice) does not read back")
    }
    if reread == notice { return }
    let tooLong = written.utf8.count <= InvalidationNotice.maximumPayload
    require(
      notice.scope != .namespace && reread.scope == .namespace && reread.sender == notice.sender
        && reread.namespace == notice.namespace && tooLong,
      "\(notice) reads back as \(reread) from \(written.debugDescription)")
  }
}
