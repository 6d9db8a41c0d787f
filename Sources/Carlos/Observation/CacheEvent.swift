/// Something that happened to a level's values, as observers see it.
///
/// ```swift
/// let token = memory.observe { event in print(event) }   // every event
/// let one = memory.observe(key: "user:42") { event in refreshUI() }
/// ```
public enum CacheEvent<Key: Sendable>: Sendable {
  /// A value was stored under the key.
  case set(Key)
  /// The key's value was removed on request.
  case removed(Key)
  /// The key's value expired and left the level.
  case expired(Key)
  /// The key's value was dropped to make room.
  case evicted(Key)
  /// Every value was removed.
  case cleared
  /// The level was told that memory is short.
  case memoryWarning

  /// The key the event is about, if it is about one.
  public var key: Key? {
    switch self {
    case .set(let key), .removed(let key), .expired(let key), .evicted(let key): return key
    case .cleared, .memoryWarning: return nil
    }
  }
}

extension CacheEvent: Equatable where Key: Equatable {}
