/// When the files of a ``DiskCacheLevel`` that expire do so, to find the
/// expired ones without looking at every file.
///
/// A min-heap of deadlines with lazy deletion: a file rewritten or removed
/// leaves a stale heap entry behind, skipped when it surfaces, and the heap is
/// rebuilt when stale entries outnumber live ones. Every operation is
/// O(log n) amortised. Not thread-safe by itself: the level keeps it behind a lock.
struct DiskCacheDeadlines: Sendable {
  private struct Item: Sendable {
    var deadline: Int64
    var name: String
  }

  /// The deadline of every file that expires, by name.
  private var deadlines: [String: Int64] = [:]
  /// The same deadlines ordered as a min-heap, plus stale ones.
  private var heap: [Item] = []

  /// Whether some file expires at all.
  var isEmpty: Bool { deadlines.isEmpty }

  /// The deadline of `name`, if it expires.
  func deadline(of name: String) -> Int64? {
    deadlines[name]
  }

  /// Records that `name` expires at `deadline` (nanoseconds since 1970), or never (`nil`).
  mutating func set(_ name: String, expiresAt deadline: Int64?) {
    guard let deadline else {
      remove(name)
      return
    }
    guard deadlines.updateValue(deadline, forKey: name) != deadline else { return }
    push(Item(deadline: deadline, name: name))
    compactIfStale()
  }

  /// Forgets `name`.
  mutating func remove(_ name: String) {
    // Most levels expire nothing: spare them hashing the name on every read.
    guard !deadlines.isEmpty, deadlines.removeValue(forKey: name) != nil else { return }
    compactIfStale()
  }

  /// Forgets everything.
  mutating func removeAll() {
    deadlines.removeAll()
    heap.removeAll()
  }

  /// The files whose deadline is at or before `now`, other than `excluded`,
  /// earliest first; they are forgotten (the caller removes them).
  mutating func takeExpired(at now: Int64, excluding excluded: String?) -> [String] {
    var expired: [String] = []
    var kept: Item?
    while let top = heap.first, top.deadline <= now {
      popFirst()
      guard deadlines[top.name] == top.deadline else { continue }  // stale
      if top.name == excluded {
        kept = top
        continue
      }
      deadlines[top.name] = nil
      expired.append(top.name)
    }
    if let kept { push(kept) }
    return expired
  }

  private mutating func compactIfStale() {
    guard heap.count > 64, heap.count > 2 * deadlines.count else { return }
    heap = deadlines.map { Item(deadline: $0.value, name: $0.key) }
    guard heap.count > 1 else { return }
    for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
  }

  private mutating func push(_ item: Item) {
    heap.append(item)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].deadline < heap[parent].deadline else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func popFirst() {
    let last = heap.removeLast()
    guard !heap.isEmpty else { return }
    heap[0] = last
    siftDown(0)
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
      if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
      guard smallest != parent else { return }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
