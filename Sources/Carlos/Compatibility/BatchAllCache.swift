/// The level ``CacheLevel/allBatch()`` returns, named as in Carlos 0.x: a level
/// keyed by a list of `Cache`'s keys (`KeySeq`), whose values are lists of
/// `Cache`'s values, in key order.
///
/// It is a ``BasicCache``, so it composes and transforms like any other level.
public typealias BatchAllCache<KeySeq: Sequence & Sendable, Cache: CacheLevel> = BasicCache<
  KeySeq, [Cache.OutputType]
> where KeySeq.Element == Cache.KeyType
