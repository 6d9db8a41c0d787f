import Foundation
import Testing

@testable import Carlos

@Suite("DiskCacheDeadlines")
struct DiskCacheDeadlinesTests {
  @Test("Expired files come out earliest first, and only once")
  func earliestFirst() {
    var deadlines = DiskCacheDeadlines()
    deadlines.set("c", expiresAt: 30)
    deadlines.set("a", expiresAt: 10)
    deadlines.set("never", expiresAt: nil)
    deadlines.set("b", expiresAt: 20)
    #expect(deadlines.takeExpired(at: 9, excluding: nil) == [])
    #expect(deadlines.takeExpired(at: 20, excluding: nil) == ["a", "b"])
    #expect(deadlines.takeExpired(at: 20, excluding: nil) == [])
    #expect(deadlines.takeExpired(at: .max, excluding: nil) == ["c"])
    #expect(deadlines.isEmpty)
  }

  @Test("A rewritten or removed file's old deadline is ignored")
  func staleDeadlines() {
    var deadlines = DiskCacheDeadlines()
    deadlines.set("moved", expiresAt: 10)
    deadlines.set("moved", expiresAt: 50)
    deadlines.set("gone", expiresAt: 10)
    deadlines.remove("gone")
    deadlines.set("cleared", expiresAt: 10)
    deadlines.set("cleared", expiresAt: nil)
    #expect(deadlines.takeExpired(at: 20, excluding: nil) == [])
    #expect(deadlines.deadline(of: "moved") == 50)
    #expect(deadlines.takeExpired(at: 50, excluding: nil) == ["moved"])
  }

  @Test("The excluded file stays, expired, for a later call")
  func excluded() {
    var deadlines = DiskCacheDeadlines()
    deadlines.set("kept", expiresAt: 1)
    deadlines.set("other", expiresAt: 2)
    #expect(deadlines.takeExpired(at: 5, excluding: "kept") == ["other"])
    #expect(deadlines.takeExpired(at: 5, excluding: nil) == ["kept"])
  }

  @Test("Many rewrites stay correct through compaction of stale entries")
  func compaction() {
    var deadlines = DiskCacheDeadlines()
    for round in 0..<100 {
      for file in 0..<50 {
        deadlines.set("f\(file)", expiresAt: Int64(1_000 + round * 50 + file))
      }
    }
    let last = Int64(1_000 + 99 * 50)
    #expect(deadlines.takeExpired(at: last - 1, excluding: nil) == [])
    let expired = deadlines.takeExpired(at: last + 24, excluding: nil)
    #expect(expired == (0..<25).map { "f\($0)" })
    #expect(!deadlines.isEmpty)
  }
}
