#if Postgres
import CarlosPostgres
import Foundation
import Testing

@Suite("InvalidationNotice")
struct InvalidationNoticeTests {
  @Test("a key notice survives the payload round trip, NUL and non-ASCII included")
  func roundTrip() throws {
    let notice = InvalidationNotice(
      sender: UUID(), namespace: "ns\ttab ✓", scope: .key(Data("a\u{0}b ✓ '\\".utf8)))
    #expect(InvalidationNotice(payload: notice.payload) == notice)
    #expect(!notice.payload.utf8.contains(0), "PostgreSQL payloads cannot hold NUL")
  }

  @Test("a refresh notice survives the round trip as one; a namespace-wide notice never is one")
  func refreshRoundTrip() throws {
    let refresh = InvalidationNotice(
      sender: UUID(), namespace: "ns", scope: .key(Data("k".utf8)), isRefresh: true)
    let read = try #require(InvalidationNotice(payload: refresh.payload))
    #expect(read == refresh && read.isRefresh)
    #expect(
      InvalidationNotice(
        payload: InvalidationNotice(sender: UUID(), namespace: "ns", scope: .key(Data("k".utf8)))
          .payload)?.isRefresh == false)
    #expect(
      !InvalidationNotice(sender: UUID(), namespace: "ns", scope: .namespace, isRefresh: true)
        .isRefresh)
  }

  @Test("a key too long for a notification payload becomes a namespace-wide notice")
  func longKey() throws {
    let sender = UUID()
    let notice = InvalidationNotice(
      sender: sender, namespace: "ns", scope: .key(Data(repeating: 0x6B, count: 100_000)))
    let payload = notice.payload
    #expect(payload.utf8.count < 8000)
    #expect(
      InvalidationNotice(payload: payload)
        == InvalidationNotice(sender: sender, namespace: "ns", scope: .namespace))
  }

  @Test("malformed payloads are not notices")
  func malformed() {
    for payload in [
      "", "hello", "v1\tnot-a-uuid\tk\tbnM=\tYQ==", "v2\t\(UUID().uuidString)\tn\tbnM=",
    ] {
      #expect(InvalidationNotice(payload: payload) == nil, "\(payload)")
    }
  }
}
#endif
