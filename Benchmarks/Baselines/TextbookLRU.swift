import Synchronization

/// The textbook exact LRU cache, the nearest baseline to the memory level's hit: a
/// dictionary from key to node number and a doubly linked list of nodes in arrays,
/// behind one mutex. A hit moves its node to the front; a set of a new key at the
/// capacity reuses the back node (the least recently used key, dropped).
public final class TextbookLRU<Key: Hashable & Sendable>: Sendable {
  /// The dictionary and the list, reached only under the mutex. Inlinable, as
  /// the rest, so that callers in other modules get code specialized for their key.
  @usableFromInline
  struct List {
    @usableFromInline let capacity: Int
    @usableFromInline var index: [Key: Int32] = [:]
    @usableFromInline var keys: [Key] = []
    @usableFromInline var values: [Int] = []
    @usableFromInline var previous: [Int32] = []
    @usableFromInline var next: [Int32] = []
    /// The most and the least recently used nodes (-1: none).
    @usableFromInline var front: Int32 = -1
    @usableFromInline var back: Int32 = -1

    @inlinable
    init(capacity: Int) { self.capacity = capacity }

    @inlinable
    mutating func unlink(_ node: Int32) {
      let (before, after) = (previous[Int(node)], next[Int(node)])
      if before >= 0 { next[Int(before)] = after } else { front = after }
      if after >= 0 { previous[Int(after)] = before } else { back = before }
    }

    @inlinable
    mutating func pushFront(_ node: Int32) {
      previous[Int(node)] = -1
      next[Int(node)] = front
      if front >= 0 { previous[Int(front)] = node } else { back = node }
      front = node
    }

    @inlinable
    mutating func get(_ key: Key) -> Int? {
      guard let node = index[key] else { return nil }
      if node != front {
        unlink(node)
        pushFront(node)
      }
      return values[Int(node)]
    }

    @inlinable
    mutating func set(_ value: Int, _ key: Key) {
      if let node = index[key] {
        values[Int(node)] = value
        unlink(node)
        pushFront(node)
        return
      }
      let node: Int32
      if keys.count < capacity {
        node = Int32(keys.count)
        keys.append(key)
        values.append(value)
        previous.append(-1)
        next.append(-1)
      } else {
        node = back
        unlink(node)
        index.removeValue(forKey: keys[Int(node)])
        keys[Int(node)] = key
        values[Int(node)] = value
      }
      index[key] = node
      pushFront(node)
    }
  }

  @usableFromInline let list: Mutex<List>

  /// An empty cache that holds at most `capacity` keys (at least one).
  @inlinable
  public init(capacity: Int) {
    list = Mutex(List(capacity: Swift.max(1, capacity)))
  }

  /// The value stored under `key`, which becomes the most recently used; nil if none.
  @inlinable
  public func get(_ key: Key) -> Int? { list.withLock { $0.get(key) } }

  /// Stores `value` under `key`, dropping the least recently used key at the capacity.
  @inlinable
  public func set(_ value: Int, _ key: Key) { list.withLock { $0.set(value, key) } }
}
