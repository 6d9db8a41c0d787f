import Testing

@testable import Carlos

@Suite("GhostKeys")
struct GhostKeysTests {
  @Test("remembers exactly the last `limit` keys")
  func window() {
    var ghosts = GhostKeys()
    ghosts.resize(limit: 100)
    var random = SplitMix64(seed: 9)
    let keys = (0..<300).map { _ in random.next() }
    for key in keys { ghosts.add(key) }
    // Old keys have expired; recent ones are remembered unless a later key took
    // their table slot (the table holds at least twice the limit).
    #expect(keys[0..<200].filter(ghosts.contains).isEmpty)
    let remembered = keys[200...].filter(ghosts.contains).count
    #expect(remembered >= 60)
    #expect(!ghosts.contains(random.next()))
  }

  @Test("without a limit nothing is remembered")
  func empty() {
    var ghosts = GhostKeys()
    ghosts.add(42)
    #expect(!ghosts.contains(42))
    ghosts.resize(limit: 1)
    ghosts.add(42)
    #expect(ghosts.contains(42))
    ghosts.add(43)
    #expect(!ghosts.contains(42))
  }
}
