/// Composes two levels: `upper >>> lower` (see ``CacheLevel/compose(_:)-(Next)``).
@inlinable
public func >>> <Upper: CacheLevel, Lower: CacheLevel>(
  upper: Upper,
  lower: Lower
) -> BasicCache<Upper.KeyType, Upper.OutputType>
where Upper.KeyType == Lower.KeyType, Upper.OutputType == Lower.OutputType {
  upper.compose(lower)
}

/// Composes a fetch closure, standing in for a level, with a lower level.
@inlinable
public func >>> <Lower: CacheLevel>(
  fetch: @escaping @Sendable (Lower.KeyType) -> Future<Lower.OutputType>,
  lower: Lower
) -> BasicCache<Lower.KeyType, Lower.OutputType> {
  BasicFetcher(getClosure: fetch).compose(lower)
}

/// Composes a level with a fetch closure that answers the gets the level misses.
@inlinable
public func >>> <Upper: CacheLevel>(
  upper: Upper,
  fetch: @escaping @Sendable (Upper.KeyType) -> Future<Upper.OutputType>
) -> BasicCache<Upper.KeyType, Upper.OutputType> {
  upper.compose(fetch)
}

/// Composes an async function, standing in for a level, with a lower level:
/// `load >>> disk`. The function is a ``BasicFetcher`` named `closure`.
@inlinable
public func >>> <Lower: CacheLevel>(
  fetch: @escaping @Sendable (Lower.KeyType) async throws -> Lower.OutputType,
  lower: Lower
) -> BasicCache<Lower.KeyType, Lower.OutputType> {
  BasicFetcher(fetch: fetch).compose(lower)
}

/// Composes a level with an async function that answers the gets the level misses:
/// `memory >>> disk >>> load`, or `memory >>> { id in try await api.profile(id) }`.
///
/// Each miss starts the function at once on the calling thread; cancelling the get
/// cancels its task. The function accepts `set` as a successful no-op.
@inlinable
public func >>> <Upper: CacheLevel>(
  upper: Upper,
  fetch: @escaping @Sendable (Upper.KeyType) async throws -> Upper.OutputType
) -> BasicCache<Upper.KeyType, Upper.OutputType> {
  upper.compose(BasicFetcher(fetch: fetch))
}

/// Composes two levels that can both insert atomically: `memory >>> database` is an
/// ``InsertingComposition``, itself an ``InsertingCacheLevel`` (see there).
@inlinable
public func >>> <Upper: InsertingCacheLevel, Lower: InsertingCacheLevel>(
  upper: Upper,
  lower: Lower
) -> InsertingComposition<Upper, Lower>
where Upper.KeyType == Lower.KeyType, Upper.OutputType == Lower.OutputType {
  InsertingComposition(upper: upper, lower: lower)
}
