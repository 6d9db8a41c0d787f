/// The in-memory picture of a ``DiskCacheLevel`` folder: the size of every
/// cache file and the order in which they were last used.
///
/// All operations are O(1) except ``addOlder(_:)``, which is linear in what it adds.
/// Not thread-safe by itself: the level keeps it behind a lock.
struct DiskCacheIndex: Sendable {
  private struct Node: Sendable {
    var name: String
    var size: UInt64
    var older: Int?
    var newer: Int?
  }

  private var nodes: [Node] = []
  private var freeSlots: [Int] = []
  private var slots: [String: Int] = [:]
  private var oldest: Int?
  private var newest: Int?

  /// The total size of the files in the index, in bytes.
  private(set) var totalBytes: UInt64 = 0

  /// The number of files in the index.
  var count: Int { slots.count }

  /// The size recorded for `name`, if the index knows the file.
  func size(of name: String) -> UInt64? {
    slots[name].map { nodes[$0].size }
  }

  /// Records that `name` has `size` bytes and was just used.
  mutating func touch(_ name: String, size: UInt64) {
    if let slot = slots[name] {
      totalBytes = totalBytes - nodes[slot].size + size
      nodes[slot].size = size
      unlink(slot)
      linkAsNewest(slot)
    } else {
      let slot = allocate(Node(name: name, size: size, older: nil, newer: nil))
      slots[name] = slot
      totalBytes += size
      linkAsNewest(slot)
    }
  }

  /// Forgets `name`; returns its recorded size.
  @discardableResult
  mutating func remove(_ name: String) -> UInt64? {
    guard let slot = slots.removeValue(forKey: name) else { return nil }
    let size = nodes[slot].size
    totalBytes -= size
    unlink(slot)
    freeSlots.append(slot)
    return size
  }

  /// The least recently used files, other than `excluded`, whose removal
  /// brings the total size down to `capacity` (oldest first; empty when the
  /// index fits already).
  func leastRecentlyUsed(toFit capacity: UInt64, excluding excluded: String) -> [String] {
    var victims: [String] = []
    var remaining = totalBytes
    var cursor = oldest
    while remaining > capacity, let slot = cursor {
      if nodes[slot].name != excluded {
        victims.append(nodes[slot].name)
        remaining -= nodes[slot].size
      }
      cursor = nodes[slot].newer
    }
    return victims
  }

  /// Adds files found on disk, ordered from least to most recently used, as
  /// older than everything already known. Files already known keep their place
  /// (the index learned about them more recently than the scan).
  mutating func addOlder(_ files: [(name: String, size: UInt64)]) {
    for file in files.reversed() where slots[file.name] == nil {
      let slot = allocate(Node(name: file.name, size: file.size, older: nil, newer: nil))
      slots[file.name] = slot
      totalBytes += file.size
      linkAsOldest(slot)
    }
  }

  /// The names from least to most recently used.
  var namesByRecency: [String] {
    var names: [String] = []
    var cursor = oldest
    while let slot = cursor {
      names.append(nodes[slot].name)
      cursor = nodes[slot].newer
    }
    return names
  }

  /// Forgets everything.
  mutating func removeAll() {
    self = DiskCacheIndex()
  }

  private mutating func allocate(_ node: Node) -> Int {
    if let slot = freeSlots.popLast() {
      nodes[slot] = node
      return slot
    }
    nodes.append(node)
    return nodes.count - 1
  }

  private mutating func unlink(_ slot: Int) {
    let older = nodes[slot].older
    let newer = nodes[slot].newer
    if let older { nodes[older].newer = newer } else { oldest = newer }
    if let newer { nodes[newer].older = older } else { newest = older }
    nodes[slot].older = nil
    nodes[slot].newer = nil
  }

  private mutating func linkAsNewest(_ slot: Int) {
    nodes[slot].older = newest
    nodes[slot].newer = nil
    if let newest { nodes[newest].newer = slot } else { oldest = slot }
    newest = slot
  }

  private mutating func linkAsOldest(_ slot: Int) {
    nodes[slot].newer = oldest
    nodes[slot].older = nil
    if let oldest { nodes[oldest].older = slot } else { newest = slot }
    oldest = slot
  }
}
