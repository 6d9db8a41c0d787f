/// A first-in, first-out queue whose elements can also leave from anywhere in
/// the line, by the ticket they got when they joined. Both take amortized O(1).
///
/// Not thread-safe by itself: the owner keeps it behind its lock.
@usableFromInline
struct WaitingQueue<Element> {
  /// The line; `nil` marks an element that left early or was taken.
  @usableFromInline var slots: [Element?] = []
  /// The index of the first slot not yet taken.
  @usableFromInline var head = 0
  /// The ticket of `slots[0]`.
  @usableFromInline var base: UInt64 = 0
  /// How many elements are waiting.
  @usableFromInline private(set) var count = 0

  @inlinable
  init() {}

  /// Whether no element is waiting.
  @inlinable
  var isEmpty: Bool { count == 0 }

  /// Puts `element` at the end of the line and returns its ticket.
  @inlinable
  mutating func append(_ element: Element) -> UInt64 {
    slots.append(element)
    count += 1
    return base + UInt64(slots.count - 1)
  }

  /// Takes the element at the front of the line, if any.
  @inlinable
  mutating func popFirst() -> Element? {
    if count == 0 {
      if !slots.isEmpty { compact() }
      return nil
    }
    while head < slots.count {
      let element = slots[head]
      slots[head] = nil
      head += 1
      if let element {
        count -= 1
        compact()
        return element
      }
    }
    return nil
  }

  /// Takes the element holding `ticket` out of the line; `nil` when it already left.
  @inlinable
  @discardableResult
  mutating func remove(_ ticket: UInt64) -> Element? {
    guard ticket >= base, ticket - base < UInt64(slots.count) else { return nil }
    let index = Int(ticket - base)
    guard index >= head, let element = slots[index] else { return nil }
    slots[index] = nil
    count -= 1
    if count == 0 { compact() }
    return element
  }

  /// Drops the taken slots at the front once they are at least half the storage.
  @inlinable
  mutating func compact() {
    if count == 0 {
      base += UInt64(slots.count)
      slots.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 64 && head * 2 >= slots.count {
      slots.removeFirst(head)
      base += UInt64(head)
      head = 0
    }
  }
}

extension WaitingQueue: Sendable where Element: Sendable {}
