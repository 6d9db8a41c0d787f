/// The Carlos 0.x name of ``UserDefaultsCacheLevel``.
///
/// Unlike the original, values are `Codable` (stored as JSON) rather than
/// `NSCoding`, and each level keeps its values in a suite of its own.
@available(*, deprecated, renamed: "UserDefaultsCacheLevel")
public typealias NSUserDefaultsCacheLevel<
  Key: StringConvertible & Sendable, Value: Codable & Sendable
> = UserDefaultsCacheLevel<Key, Value>
