import Foundation
import Testing

@testable import Carlos

@Suite("DiskFile")
struct DiskFileTests {
  @Test("readHead reads at most the file, and asks for no more memory than the file holds")
  func readHeadBeyondTheEnd() throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let path = folder.child("short")
    try Data([1, 2, 3, 4, 5]).write(to: URL(fileURLWithPath: path))
    // Found with the disk-file fuzz target: a planted header declaring a 4 GiB key made
    // the level (looking up the key of a file it removes) ask for a 4 GiB buffer for a
    // 5-byte file. A terabyte is more than any machine has: it crashed here.
    let head = DiskFile.readHead(path, count: 1 << 40)
    #expect(head?.bytes == [1, 2, 3, 4, 5])
    #expect(head?.size == 5)
    #expect(DiskFile.readHead(path, count: 3)?.bytes == [1, 2, 3])
  }
}
